import Operations

/// A stack of plain values in memory it manages itself, for the stream encoder's bookkeeping.
///
/// ``JSONStreamEncoder`` pushes and pops a few frames, keys and slot states for every value it
/// writes. In arrays held by a class, each of those writes checked that the array was not
/// shared, and each reset went through `replaceSubrange`: together about a twentieth of a
/// buffered journal append. Its elements are bitwise copyable, so popping or clearing is a
/// change of ``count`` and nothing is destroyed. Not copyable: one owner frees the memory.
struct PlainStack<Element: BitwiseCopyable>: ~Copyable {
    private var base: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// How many elements the stack holds.
    private(set) var count = 0

    init(capacity: Int = 8) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// The element at `index`, counted from the bottom.
    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "PlainStack index out of range")
            return base[index]
        }
        set {
            precondition(index >= 0 && index < count, "PlainStack index out of range")
            base[index] = newValue
        }
    }

    mutating func push(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    /// Removes and returns the top element; the stack must not be empty.
    mutating func pop() -> Element {
        precondition(count > 0, "PlainStack popped empty")
        count &-= 1
        return base[count]
    }

    /// Keeps the bottom `count` elements.
    mutating func truncate(to count: Int) {
        precondition(count >= 0 && count <= self.count, "PlainStack truncated beyond its count")
        self.count = count
    }

    /// Doubles the memory; out of line, since a reused stack soon has the room it needs.
    @inline(never)
    private mutating func grow() {
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        grown.initialize(from: base, count: count)
        base.deallocate()
        base = grown
        capacity *= 2
    }
}
