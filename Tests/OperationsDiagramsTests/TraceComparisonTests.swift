import Operations
import OperationsTesting
import Testing

/// Comparing a trace with the messages a test expects.
struct TraceComparisonTests {
    let trace = TraceFixtures.twoKeyServices
    let expected: [TraceMessage] = [
        .launch("PhoneOp", by: "AuthScenario", "launch(phone)"),
        .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
        .reply(from: "AuthAPI", to: "PhoneOp", "phoneToken"),
        .call(from: "PhoneOp", to: "LocalStorage", "save(phoneToken)"),
        .reply(from: "LocalStorage", to: "PhoneOp", "ok"),
        .finish("PhoneOp", to: "AuthScenario", "onFinish(phoneToken)"),
    ]

    @Test func exactTraceMatches() {
        #expect(trace.mismatch(expecting: expected) == nil)
    }

    @Test func unexpectedMessageFailsExhaustiveComparison() throws {
        var fewer = expected
        fewer.remove(at: 3)
        fewer.remove(at: 3)
        let mismatch = try #require(trace.mismatch(expecting: fewer))
        #expect(mismatch.summary.contains("message #4"))
        #expect(mismatch.diff.contains("+ PhoneOp -> LocalStorage: save(phoneToken)"))
        #expect(mismatch.description.contains("expected"))
        #expect(mismatch.description.contains("actual"))
        #expect(mismatch.description.contains("│PhoneOp│"), "both diagrams are drawn")
    }

    @Test func subsequenceIgnoresOtherMessages() {
        let some: [TraceMessage] = [
            .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
            .reply(from: "LocalStorage", to: "PhoneOp", "ok"),
        ]
        #expect(trace.mismatch(expecting: some, matching: .subsequence) == nil)
        #expect(trace.mismatch(expecting: some) != nil)
    }

    @Test func subsequenceNeedsTheOrder() throws {
        let reversed: [TraceMessage] = [
            .reply(from: "LocalStorage", to: "PhoneOp", "ok"),
            .call(from: "PhoneOp", to: "AuthAPI", "requestCode(phone)"),
        ]
        let mismatch = try #require(trace.mismatch(expecting: reversed, matching: .subsequence))
        #expect(mismatch.summary.contains("#2"))
    }
}
