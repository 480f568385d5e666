import Operations
import OperationsDiagrams
import OperationsTestSupport
import OperationsTesting
import Testing

/// The engine frames what it knows the reason for: a retry, a handler's relaunch, a
/// conditional step, a nested scenario — and notes a skipped step.
struct ScenarioFrameTests {
    private static func frames(_ trace: Trace) -> [String] {
        trace.events.compactMap { event in
            switch event.kind {
            case .frameOpen(let kind, let label, let opener): "\(kind.rawValue) \(label) by \(opener)"
            case .frameBranch(let label): "else \(label)"
            case .frameClose: "end"
            // The notes of each launch (value, purity, key) are StepTraceNoteTests' business.
            case .note(let over, let text) where text.hasPrefix("skipped"): "note \(over): \(text)"
            default: nil
            }
        }
    }

    @Test func retriesRelaunchesConditionsAndNestingAreFramed() throws {
        // Inner: one step that fails transiently once. Outer: the inner scenario, a conditional
        // step that runs, one that is skipped, and a step a handler relaunches.
        let ops = ScriptedOps([
            .failure(.flaky), .success(5),  // inner step: retried once
            .success(6),  // "positive" step runs
            .failure(.broken), .success(7),  // relaunched by the handler
        ])
        let inner = Scenario<Int, Int>("Inner") { chain in
            chain.then(Step("Fetch", ops.make).retrying(.transient(maxAttempts: 3, backoff: .immediate)))
        }
        let outer = Scenario<Int, Int>("Outer") { chain in
            chain
                .then(Step("InnerStep") { inner })
                .then(Step("Positive", ops.make), when: { $0 > 0 }, describedAs: "positive")
                .then(Step("Huge", ops.make), when: { $0 > 1000 }, describedAs: "huge")
                .then(
                    Step("Confirm", ops.make).onFailure { failure, decide in
                        decide(.relaunch(failure.input, because: "declined: asked again"))
                    })
        }
        let tracer = InMemoryTracer()
        var context = OpContext(1)
        context.trace = TraceScope.root(tracer, caller: .caller("Test"))
        #expect(try outer.launchAndWait(context) == 7)

        let trace = tracer.trace
        try trace.validate()
        #expect(
            Self.frames(trace) == [
                "group Inner by Outer",
                "loop retry 2 of 3: flaky by Inner",
                "end",
                "end",
                "opt positive by Outer",
                "end",
                "note Outer: skipped Huge: huge is false",
                "loop declined: asked again by Outer",
                "end",
            ])
        // Every format draws them.
        #expect(try PlantUMLRenderer().render(trace).contains("loop retry 2 of 3: flaky\n"))
        #expect(try MermaidRenderer().render(trace).contains("    opt positive\n"))
        #expect(try TextDiagramRenderer().render(trace).contains("┌─ loop [declined: asked again] ─"))
    }

    @Test func aRelaunchWithoutAReasonNamesTheError() throws {
        let ops = ScriptedOps([.failure(.broken), .success(2)])
        let scenario = Scenario<Int, Int>("S") { chain in
            chain.then(Step("Pay", ops.make).onFailure { failure, decide in decide(.relaunch(failure.input)) })
        }
        let tracer = InMemoryTracer()
        var context = OpContext(1)
        context.trace = TraceScope.root(tracer)
        _ = try scenario.launchAndWait(context)
        #expect(Self.frames(tracer.trace) == ["loop relaunched after broken by S", "end"])
    }

    @Test func untracedRunsRecordNothingAndStillRetry() throws {
        let ops = ScriptedOps([.failure(.flaky), .success(3)])
        let scenario = Scenario<Int, Int>("S") { chain in
            chain.then(Step("Fetch", ops.make).retrying(.transient(maxAttempts: 2, backoff: .immediate)))
        }
        #expect(try scenario.launchAndWait(OpContext(1)) == 3)
        #expect(ops.launchCount == 2)
    }
}
