import Operations
import OperationsDiagrams
import Testing

/// Invalid traces are reported as errors with a sentence, never drawn.
struct TraceValidationTests {
    static let base: [TraceEvent] = [
        .declare(.caller("Caller")), .declare(.operation("Op")), .declare(.keyService("API")),
        .declare(.contextService("VM")),
    ]

    static let invalid: [(events: [TraceEvent], error: TraceError)] = [
        ([.call(from: "Op", to: "Ghost", "hello")], .undeclaredParticipant("Ghost", event: 4)),
        ([.call(from: "Op", to: "VM", "show")], .usedBeforeCreation("VM", event: 4)),
        (
            [.create("VM", by: "Op"), .release("VM"), .reply(from: "VM", to: "Op", "late")],
            .usedAfterRelease("VM", event: 6)
        ),
        ([.finish("Op", to: "Caller", "onFinish")], .finishedBeforeLaunch("Op", event: 4)),
        ([.reply(from: "API", to: "Op", "token")], .unmatchedReply(from: "API", to: "Op", event: 4)),
        ([.launch("Op", by: "Caller", "launch")], .neverFinished("Op")),
        ([.create("API", by: "Op")], .wrongKind("API", kind: .keyService, expected: .contextService, event: 4)),
        ([.create("VM", by: "Op"), .create("VM", by: "Op")], .createdTwice("VM", event: 5)),
        ([.declare(.keyService("Op"))], .conflictingDeclaration("Op", event: 4)),
        ([.launch("Op", by: "Caller", "a"), .launch("Op", by: "Caller", "b")], .launchedWhileRunning("Op", event: 5)),
        ([.closeFrame], .frameNotOpen(event: 4)),
        ([.branch("else")], .frameNotOpen(event: 4)),
        ([.openFrame(.loop, "retry", by: "Op"), .branch("else")], .branchOutsideAlt(.loop, event: 5)),
        ([.openFrame(.opt, "terms required", by: "Op")], .frameNeverClosed(.opt, label: "terms required")),
        ([.openFrame(.group, "g", by: "Ghost"), .closeFrame], .undeclaredParticipant("Ghost", event: 4)),
    ]

    @Test(arguments: invalid.indices)
    func invalidTraceIsAnError(index: Int) {
        let (events, expected) = Self.invalid[index]
        let trace = Trace(events: Self.base + events)
        #expect(throws: expected) { try trace.validate() }
        #expect(throws: expected) { try TextDiagramRenderer().render(trace) }
        #expect(throws: expected) { try PlantUMLRenderer().render(trace) }
        #expect(throws: expected) { try MermaidRenderer().render(trace) }
        #expect(!expected.description.isEmpty)
    }

    @Test func errorsReadAsSentences() {
        let error = TraceError.unmatchedReply(from: "AuthAPI", to: "PhoneOp", event: 12)
        #expect(
            error.description
                == "event[12] is a reply from 'AuthAPI' to 'PhoneOp', but 'AuthAPI' has no open call from 'PhoneOp' to answer (unbalanced activation)."
        )
    }

    @Test(arguments: TraceFixtures.all.indices)
    func fixturesAreValid(fixture: Int) throws {
        try TraceFixtures.all[fixture].trace().validate()
    }
}
