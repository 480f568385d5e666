import Operations
import Testing

/// Comparing a trace with the messages a test expects.
struct TraceComparisonTests {
    let trace = TraceFixtures.twoKeyServices
    let expected: [TraceMessage] = [
        .launch("AuthScenario", "PhoneOp", "launch(phone)"),
        .call("PhoneOp", "AuthAPI", "requestCode(phone)"),
        .reply("AuthAPI", "PhoneOp", "phoneToken"),
        .call("PhoneOp", "LocalStorage", "save(phoneToken)"),
        .reply("LocalStorage", "PhoneOp", "ok"),
        .finish("PhoneOp", "AuthScenario", "onFinish(phoneToken)"),
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
        let some: [TraceMessage] = [.call("PhoneOp", "AuthAPI", "requestCode(phone)"), .reply("LocalStorage", "PhoneOp", "ok")]
        #expect(trace.mismatch(expecting: some, matching: .subsequence) == nil)
        #expect(trace.mismatch(expecting: some) != nil)
    }

    @Test func subsequenceNeedsTheOrder() throws {
        let reversed: [TraceMessage] = [.reply("LocalStorage", "PhoneOp", "ok"), .call("PhoneOp", "AuthAPI", "requestCode(phone)")]
        let mismatch = try #require(trace.mismatch(expecting: reversed, matching: .subsequence))
        #expect(mismatch.summary.contains("#2"))
    }
}
