import Testing

@testable import Operations
@testable import OperationsJournal

/// The stream encoder's stack keeps its elements in order through growth, pops and truncation.
@Suite struct PlainStackTests {
    @Test func keepsItsElementsInOrderAsItGrows() {
        var stack = PlainStack<Int>(capacity: 1)
        for value in 0..<100 { stack.push(value * 3) }
        #expect(stack.count == 100)
        #expect((0..<100).allSatisfy { stack[$0] == $0 * 3 })
        #expect(stack.pop() == 297)
        #expect(stack.count == 99)
    }

    @Test func truncatedItIsWrittenAfresh() {
        var stack = PlainStack<Int>()
        for value in 1...5 { stack.push(value) }
        stack.truncate(to: 2)
        stack.push(30)
        stack[0] = 10
        #expect(stack.count == 3)
        #expect([stack[0], stack[1], stack[2]] == [10, 2, 30])
        stack.truncate(to: 0)
        #expect(stack.count == 0)
    }
}
