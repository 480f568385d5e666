import Foundation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// A parallel step launches its branches at once and joins them: all of them, or the first to
/// succeed.
struct ParallelTests {
    @Test func theBranchesOutputsComeTypedInBranchOrder() throws {
        let scenario = Scenario<Int, String>("Both") { chain in
            chain
                .parallel("DoubleAndDescribe", Step("Double") { DoubleOp() }, Step("Describe") { DescribeOp() })
                .map { doubled, described in "\(doubled) \(described)" }
        }
        #expect(try LaunchProbe.launch(scenario, input: 3).value() == "6 #3")
    }

    @Test func aListOfBranchesGivesItsOutputsInOrder() throws {
        let ledger = EffectLedger()
        let scenario = Scenario<Int, [Int]>("Fan") { chain in
            chain.parallel("Each", (0..<5).map { ledger.step("B\($0)") })
        }
        #expect(try LaunchProbe.launch(scenario, input: 1).value() == [2, 2, 2, 2, 2])
        #expect(Set(ledger.names) == ["B0", "B1", "B2", "B3", "B4"])
        let keys = ledger.launches.compactMap(\.key)
        #expect(Set(keys).count == 5, "each branch with side effects sends its own request")
    }

    @Test func branchesAreStepsBelowTheParallelStep() throws {
        let recorder = ScenarioRecorder()
        let ledger = EffectLedger()
        let scenario = Scenario<Int, (Int, Int)>("Two") { chain in
            chain.parallel("Pair", ledger.step("Left"), ledger.step("Right"))
        }
        _ = run(scenario, 1, environment: OpEnvironment(observer: recorder))
        let launched = recorder.events.filter { if case .stepLaunched = $0.kind { true } else { false } }
        #expect(launched.map(\.address.description) == ["0.Pair", "0.Pair/0.Left", "0.Pair/1.Right"])
        #expect(recorder.stepLines.last == "Pair succeeded #1")
        let shape = scenario.shape
        #expect(shape.steps.first?.nested?.steps.map(\.name) == ["Left", "Right"])
    }

    @Test func theFirstFailureCancelsTheOtherBranchesAndNamesItsBranch() throws {
        let ledger = EffectLedger(["Slow": [.hang], "Broken": [.fail(.broken)]])
        let recorder = ScenarioRecorder()
        let scenario = Scenario<Int, (Int, Int)>("Two") { chain in
            chain.parallel("Pair", ledger.step("Slow"), ledger.step("Broken"))
        }
        let failure = try #require(
            run(scenario, 1, environment: OpEnvironment(observer: recorder))?.failure as? StepFailure)
        #expect(failure.stepPath == ["Pair", "Broken"])
        #expect("\(failure)".contains("Pair › Broken failed: broken"))
        #expect(
            recorder.stepLines.contains { $0.hasPrefix("Slow failed #1") && $0.contains("cancelled") },
            "the hanging branch saw the cancellation: \(recorder.stepLines)")
    }

    @Test func cancellingTheScenarioCancelsEveryBranch() throws {
        let ledger = EffectLedger(["A": [.hang], "B": [.hang]])
        let token = CancellationToken()
        let box = FinishBox<(Int, Int)>()
        Scenario<Int, (Int, Int)>("Two") { $0.parallel("Pair", ledger.step("A"), ledger.step("B")) }
            .launch(OpContext(1, cancellation: token), onFinish: box.onFinish)
        token.cancel()
        let error = try #require(box.wait()?.failure)
        #expect(error.isCancellation)
        #expect(box.count == 1)
    }

    @Test func aRaceGoesOnWithTheFirstSuccessAndCancelsTheRest() throws {
        let ledger = EffectLedger(["Slow": [.hang]])
        let recorder = ScenarioRecorder()
        let scenario = Scenario<Int, Int>("Quote") { chain in
            chain.race("Fastest", [ledger.step("Slow"), ledger.step("Quick")])
        }
        #expect(run(scenario, 10, environment: OpEnvironment(observer: recorder))?.success == 11)
        #expect(recorder.stepLines.contains { $0.hasPrefix("Slow failed #1") && $0.contains("cancelled") })
    }

    @Test func aRaceFailsOnlyWhenEveryBranchFailsAndNamesThemAll() throws {
        let ledger = EffectLedger(["A": [.fail(.broken)], "B": [.fail(.flaky)]])
        let scenario = Scenario<Int, Int>("Quote") { $0.race("Fastest", [ledger.step("A"), ledger.step("B")]) }
        let failure = try #require(run(scenario, 1, environment: OpEnvironment())?.failure as? StepFailure)
        let all = try #require(failure.error as? ParallelFailure)
        #expect(all.failures.map(\.step) == ["A", "B"])
        #expect(all.description == "every branch of Fastest failed: A (broken), B (flaky)")
    }

    @Test func aParallelStepWithNoBranchesIsRefusedBeforeAnythingLaunches() throws {
        let ledger = EffectLedger()
        let scenario = Scenario<Int, [Int]>("Empty") { chain in
            chain.then(ledger.step("First")).parallel("Nothing", [Step<Int, Int>]())
        }
        let error = try #require(run(scenario, 1, environment: OpEnvironment())?.failure as? ScenarioDefinitionError)
        #expect(error == .parallelWithoutBranches(step: "Nothing"))
        #expect(ledger.names.isEmpty)
        #expect("\(error)" == "the parallel step Nothing has no branches: give it at least one step")
    }

    @Test func fiveThousandSynchronousBranchesKeepTheStackFlat() async {
        let count = 5_000
        let scenario = Scenario<Int, [Int]>("Wide") { chain in
            chain.parallel("Many", (0..<count).map { _ in Step("Double") { DoubleOp() } })
        }
        let box = FinishBox<[Int]>()
        let thread = Thread { scenario.launch(OpContext(1), onFinish: box.onFinish) }
        thread.stackSize = 512 * 1024
        thread.start()
        // Waited for on a thread of its own, not on the test pool.
        let result = await OwnThread.run { box.wait() }
        #expect(result?.success?.count == count)
    }

    @Test func theBranchesAreDrawnOneAfterAnotherInAParFrame() throws {
        let tracer = InMemoryTracer()
        var context = OpContext(3)
        context.trace = .root(tracer, caller: .caller("Caller"))
        let scenario = Scenario<Int, (Int, String)>("Both") { chain in
            chain.parallel("DoubleAndDescribe", Step("Double") { DoubleOp() }, Step("Describe") { DescribeOp() })
        }
        _ = try scenario.launchAndWait(context)
        let kinds = tracer.trace.events.map(\.kind)
        let open = try #require(kinds.firstIndex { if case .frameOpen(.par, _, _) = $0 { true } else { false } })
        let branch = try #require(
            kinds.firstIndex { if case .frameBranch(let label) = $0 { label == "Describe" } else { false } })
        let close = try #require(kinds.lastIndex { if case .frameClose = $0 { true } else { false } })
        #expect(open < branch && branch < close)
    }
}

extension ParallelTests {
    @Test func aBranchThatFinishedIsUndoneWhenAnotherFailsForGood() throws {
        let ledger = EffectLedger(["Charge": [.fail(.broken)]])
        let scenario = Scenario<Int, (Int, Int)>("Order") { chain in
            chain.parallel(
                "ReserveAndCharge", ledger.step("Reserve").compensated(by: ledger.step("Release")),
                ledger.step("Charge"))
        }
        let failure = try #require(run(scenario, 1, environment: OpEnvironment())?.failure as? StepFailure)
        #expect(failure.stepPath == ["ReserveAndCharge", "Charge"])
        #expect(ledger.names == ["Reserve", "Charge", "Release"])
    }

    @Test func aBranchFinishedEarlierIsUndoneWhenALaterStepFailsForGood() throws {
        let ledger = EffectLedger(["Confirm": [.fail(.broken)]])
        let scenario = Scenario<Int, Int>("Order") { chain in
            chain
                .parallel(
                    "ReserveAndCheck", ledger.step("Reserve").compensated(by: ledger.step("Release")),
                    ledger.step("Check")
                )
                .map { reserved, _ in reserved }
                .then(ledger.step("Confirm"))
        }
        _ = run(scenario, 1, environment: OpEnvironment())
        #expect(ledger.names.suffix(2) == ["Confirm", "Release"])
    }
}
