import Operations
import OperationsDiagrams
import OperationsTestSupport
import OperationsTesting
import Testing

/// What a traced scenario writes on its own lifeline: the value each launch is handed, the
/// step's purity and key, its own `map`/`merge` computing, and why it stopped.
struct StepTraceNoteTests {
    /// A lost answer: the request may have taken effect, so a retry must carry the same key.
    private struct LostAnswer: RetryableError, OutcomeUncertainError, CustomStringConvertible {
        var isTransient: Bool { true }
        var outcomeIsUncertain: Bool { true }
        var description: String { "answer lost" }
    }

    /// A side-effect step that loses the answer of the first launch with each key.
    private final class LosingOnceOp: Op {
        private let seen: KeysSeen

        init(_ seen: KeysSeen) { self.seen = seen }

        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            if let key = context.idempotencyKey, seen.isFirst(key) { return completion.fail(LostAnswer()) }
            completion.succeed(context.input + 1)
        }
    }

    private final class KeysSeen: Sendable {
        private let keys = LockedState<Set<IdempotencyKey>>([])
        func isFirst(_ key: IdempotencyKey) -> Bool { keys.withLock { $0.insert(key).inserted } }
    }

    private static func notes(_ trace: Trace) -> [String] {
        trace.events.compactMap { event in
            if case .note(_, let text) = event.kind { text } else { nil }
        }
    }

    private static func selfMessages(_ trace: Trace) -> [String] {
        trace.events.compactMap { event in
            if case .message(let from, let to, let label, _) = event.kind, from == to { label } else { nil }
        }
    }

    private static func traced<Output>(
        _ scenario: Scenario<Int, Output>, input: Int = 1
    ) -> (Result<Output, any Error>, Trace) {
        let tracer = InMemoryTracer()
        var context = OpContext(input, environment: OpEnvironment(makeIdempotencyKey: IdempotencyKey.sequence()))
        context.trace = TraceScope.root(tracer, caller: .caller("Test"))
        let result = Result { try scenario.launchAndWait(context) }
        return (result, tracer.trace)
    }

    @Test func eachLaunchIsNotedWithItsValuePurityAndKey() throws {
        let ops = ScriptedOps([])
        let scenario = Scenario<Int, String>("S") { chain in
            chain
                .then(Step("Double") { DoubleOp() })
                .then(Step("Charge", ops.makeWithSideEffects))
                .then(Step("Describe") { DescribeOp() })
        }
        let (result, trace) = Self.traced(scenario, input: 3)
        #expect(try result.get() == "#6")
        try trace.validate()
        #expect(
            Self.notes(trace) == [
                "int 3\npure",
                "int 6\nside effects, key idk…0001",
                "int 6\npure",
            ])
    }

    @Test func aRetryAfterALostAnswerShowsTheSameKey() throws {
        let policy = RetryPolicy(maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true)
        let scenario = Scenario<Int, Int>("S") { chain in
            let seen = KeysSeen()
            return chain.then(Step("Send") { LosingOnceOp(seen) }.retrying(policy))
        }
        let (result, trace) = Self.traced(scenario)
        #expect(try result.get() == 2)
        // The retry repeats a request whose answer was lost: one key for both attempts.
        #expect(Self.notes(trace) == ["int 1\nside effects, key idk…0001", "int 1\nside effects, key idk…0001"])
    }

    @Test func aFailedRunSaysWhyItStopped() throws {
        let ops = ScriptedOps([.failure(.flaky), .failure(.flaky)])
        let scenario = Scenario<Int, Int>("S") { chain in
            chain.then(Step("Fetch", ops.make).retrying(.transient(maxAttempts: 2, backoff: .immediate)))
        }
        let (result, trace) = Self.traced(scenario)
        #expect(throws: StepFailure.self) { try result.get() }
        #expect(Self.notes(trace).last == "stopped: Fetch failed after 2 attempts: flaky")
        // The note comes after the step's failing finish and before the scenario's own.
        let kinds = trace.events.map(\.kind)
        let noteIndex = try #require(kinds.lastIndex { if case .note = $0 { true } else { false } })
        #expect(kinds[(noteIndex + 1)...].contains { if case .finish(_, _, _) = $0 { true } else { false } })
    }

    @Test func aSideEffectStepNotRetriedSaysWhyInItsStopNote() throws {
        let ops = ScriptedOps([.failure(.flaky)])
        let scenario = Scenario<Int, Int>("S") { chain in
            chain.then(Step("Pay", ops.makeWithSideEffects).retrying(.transient(maxAttempts: 3, backoff: .immediate)))
        }
        let (_, trace) = Self.traced(scenario)
        let stop = try #require(Self.notes(trace).last)
        #expect(stop.hasPrefix("stopped: Pay failed: flaky (not retried: Pay has side effects"))
    }

    @Test func aNestedScenarioFailureNamesTheOperationInside() throws {
        let ops = ScriptedOps([.failure(.broken)])
        let inner = Scenario<Int, Int>("Inner") { chain in chain.then(Step("Verify", ops.make)) }
        let outer = Scenario<Int, Int>("Outer") { chain in chain.then(Step("InnerStep") { inner }) }
        let (_, trace) = Self.traced(outer)
        #expect(
            Self.notes(trace).suffix(2) == [
                "stopped: Verify failed: broken", "stopped: InnerStep failed: Verify: broken",
            ])
    }

    @Test func mapAndMergeAreSelfMessagesNamingTypesOnly() throws {
        let scenario = Scenario<Int, String>("S") { chain in
            chain
                .then(Step("Double") { DoubleOp() }, input: { $0 }, merge: { current, doubled in current + doubled })
                .map { "\($0)" }
        }
        let (result, trace) = Self.traced(scenario, input: 2)
        #expect(try result.get() == "6")
        #expect(Self.selfMessages(trace) == ["int + int → int", "int → string"])
        // Drawn as loops on the scenario's lifeline in every format.
        #expect(try TextDiagramRenderer().render(trace).contains("───┐ int → string"))
        #expect(try PlantUMLRenderer().render(trace).contains("S -> S : int → string"))
    }

    @Test func valueNamesUnwrapOptionalsAndDropGenerics() {
        #expect(TraceLabel.valueName(of: Int?.self) == "int")
        #expect(TraceLabel.valueName(of: [String].self) == "array")
        #expect(TraceLabel.valueName(of: Result<Int, any Error>.self) == "result")
        #expect(TraceLabel.valueName(of: StepFailure.self) == "stepFailure")
        // A leading acronym stays whole (issue 28: `OTPPrompt` drew as `oTPPrompt`).
        #expect(TraceLabel.valueName(of: OTPPrompt.self) == "otpPrompt")
        #expect(TraceLabel.valueName(of: SMSCodeEntry.self) == "smsCodeEntry")
        #expect(TraceLabel.valueName(of: ID?.self) == "id")
    }
}

private struct OTPPrompt {}
private struct SMSCodeEntry {}
private struct ID {}
