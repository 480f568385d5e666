import Dispatch
import Operations
import OperationsDiagrams
import Synchronization
import Testing

/// The in-memory tracer and the recording scope.
struct InMemoryTracerTests {
    @Test func recordsFromManyThreadsKeepingEachThreadsOrder() {
        let tracer = InMemoryTracer()
        let root = TraceScope.root(tracer)
        let threads = 8
        let perThread = 200
        for thread in 0..<threads { root.declare(.keyService("S\(thread)")) }
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let target = Participant.keyService("S\(thread)")
            for index in 0..<perThread { root.async(to: target, "\(index)") }
        }
        let messages = tracer.trace.messages
        #expect(messages.count == threads * perThread)
        for thread in 0..<threads {
            let labels = messages.filter { $0.to.rawValue == "S\(thread)" }.map(\.label)
            #expect(labels == (0..<perThread).map(String.init))
        }
    }

    @Test func scopeRecordsLaunchAndFinishAndDeduplicatesDeclarations() {
        let tracer = InMemoryTracer()
        let root = TraceScope.root(tracer, caller: .caller("Scenario"))
        let operation = root.launch(.operation("PhoneOp"), "launch(phone)")
        let screen = Participant.contextService("PhoneScreen")
        for attempt in 1...2 {
            operation.create(screen)
            operation.scope(for: screen).reply(to: operation.participant, "attempt \(attempt)")
            operation.release(screen)
        }
        operation.finish("onFinish")
        let trace = tracer.trace
        #expect(trace.participants.map(\.name) == ["Scenario", "PhoneOp", "PhoneScreen"])
        #expect(trace.events.filter { if case .declare = $0.kind { return true } else { return false } }.count == 3)
        #expect(trace.messages.first == .launch("PhoneOp", by: "Scenario", "launch(phone)"))
        #expect(trace.messages.last == .finish("PhoneOp", to: "Scenario", "onFinish"))
        #expect(throws: Never.self) { try trace.validate() }
    }

    @Test func disabledScopeNeverEvaluatesLabels() {
        let evaluated = Atomic(0)
        func label() -> String {
            evaluated.add(1, ordering: .relaxed)
            return "expensive"
        }
        let scope = TraceScope.disabled
        let api = Participant.keyService("API")
        scope.message(to: api, label())
        scope.reply(to: api, label())
        scope.async(to: api, label())
        scope.note(label())
        let child = scope.launch(.operation("Op"), label())
        child.finish(label())
        scope.create(.contextService("VM"), label())
        #expect(evaluated.load(ordering: .relaxed) == 0)
        #expect(!child.isEnabled)
    }

    @Test func aMessageToAServiceNeverDeclaredDeclaresItOnce() throws {
        let tracer = InMemoryTracer()
        let root = TraceScope.root(tracer, caller: .caller("Test"))
        let op = root.launch(.operation("PayOp"), "launch")
        let bank = Participant.keyService("Bank")
        op.message(to: bank, "charge(12 EUR)")
        op.reply(from: bank, "charged")
        op.message(to: bank, "receipt()")
        op.finish("onFinish")
        let trace = tracer.trace
        try trace.validate()
        let declarations = trace.events.filter { if case .declare(let p) = $0.kind { p.id == bank.id } else { false } }
        #expect(declarations.count == 1)
        #expect(try TextDiagramRenderer().render(trace).contains("│Bank│"))
    }
}
