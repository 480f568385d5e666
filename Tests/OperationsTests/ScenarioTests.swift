import Dispatch
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

struct ScenarioTests {
    @Test func eachStepsOutputIsTheNextStepsInput() throws {
        func makeScenario() -> Scenario<Int, String> {
            Scenario("Chain") { chain in
                chain.then(Step { DoubleOp() }).then(Step { DoubleOp() }).then(Step { DescribeOp() })
            }
        }
        #expect(makeScenario().stepNames == ["DoubleOp", "DoubleOp", "DescribeOp"])
        let report = LaunchProbe.launch(makeScenario(), input: 3)
        #expect(report.keptContract)
        #expect(try report.value() == "#12")
    }

    @Test func aConditionalStepIsSkippedWhenItsConditionIsFalse() {
        let recorder = ScenarioRecorder()
        let scenario = Scenario<Int, Int>("Branch") { chain in
            chain.then(Step("Terms") { DoubleOp() }, when: { $0 > 10 }).then(Step { DoubleOp() })
        }
        let environment = OpEnvironment(observer: recorder)
        let small = FinishBox<Int>()
        scenario.launch(OpContext(3, environment: environment), onFinish: small.onFinish)
        #expect(small.first?.success == 6)
        #expect(recorder.stepLines == ["Terms skipped", "DoubleOp launched #1", "DoubleOp succeeded #1"])

        let large = FinishBox<Int>()
        scenario.launch(OpContext(20), onFinish: large.onFinish)
        #expect(large.first?.success == 80)
    }

    /// A builder hands its arrays on to the longer chain it makes; one kept and extended twice
    /// must still give two chains that do not share a step.
    @Test func aBuilderKeptAndExtendedTwiceGivesIndependentChains() throws {
        let discarded = LockedState<[String]>([])
        let scenario = Scenario<Int, String>("Branched") { chain in
            let base = chain.then(Step("Double") { DoubleOp() })
            let other = base.then(Step("Again") { DoubleOp() })
            discarded.withLock { $0 = other.stepNames }
            return base.then(Step("Describe") { DescribeOp() })
        }
        #expect(scenario.shape.steps.map(\.name) == ["Double", "Describe"])
        #expect(discarded.withLock { $0 } == ["Double", "Again"])
        #expect(try LaunchProbe.launch(scenario, input: 2).value() == "#4")
    }

    @Test func mapConvertsBetweenStepsWithoutLaunching() throws {
        let scenario = Scenario<Int, String>("Map") { chain in
            chain.then(Step { DoubleOp() }).map { $0 + 1 }.then(Step { DescribeOp() })
        }
        #expect(try LaunchProbe.launch(scenario, input: 2).value() == "#5")
    }

    @Test func scenariosNestAndReportNestedAddresses() throws {
        let inner = Scenario<Int, Int>("Inner") { chain in chain.then(Step { DoubleOp() }).then(Step { DoubleOp() }) }
        let outer = Scenario<Int, String>("Outer") { chain in
            chain.then(Step("Inner", purity: .pure) { inner }).then(Step { DescribeOp() })
        }
        let recorder = ScenarioRecorder()
        let box = FinishBox<String>()
        outer.launch(OpContext(1, environment: OpEnvironment(observer: recorder)), onFinish: box.onFinish)
        #expect(box.first?.success == "#4")
        let launched = recorder.events.filter { if case .stepLaunched = $0.kind { true } else { false } }
        #expect(
            launched.map(\.address.description) == [
                "0.Inner", "0.Inner/0.DoubleOp", "0.Inner/1.DoubleOp", "1.DescribeOp",
            ])
        #expect(recorder.lines.first == "Outer started")
        #expect(recorder.lines.last == "Outer succeeded")
    }

    @Test func aNestedFailureNamesTheWholeStepPath() throws {
        let ops = ScriptedOps([.failure(.broken)])
        let inner = Scenario<Int, Int>("AuthScenario") { chain in chain.then(Step("CodeOp", ops.make)) }
        let outer = Scenario<Int, Int>("AppScenario") { chain in chain.then(Step("AuthScenario") { inner }) }
        let failure = try #require(LaunchProbe.launch(outer, input: 1).error as? StepFailure)
        #expect(failure.stepPath == ["AuthScenario", "CodeOp"])
        #expect(failure.failedOperation == "CodeOp")
        #expect(failure.rootCause as? TestError == .broken)
    }

    @Test func cancellingAScenarioFinishesItOnceAndLaunchesNoFurtherStep() {
        let token = CancellationToken()
        let parked = LockedState<Completion<Int>?>(nil)
        let later = ScriptedOps([])
        let scenario = Scenario<Int, Int>("Cancel") { chain in
            chain.then(Step { ManualOp { completion in parked.withLock { $0 = completion } } }).then(Step(later.make))
        }
        let box = FinishBox<Int>()
        scenario.launch(OpContext(1, cancellation: token), onFinish: box.onFinish)
        token.cancel()
        parked.withLock { $0 }?.succeed(1)
        #expect(box.count == 1)
        #expect(box.first?.failure?.isCancellation == true)
        #expect(later.launchCount == 0)
    }

    @Test func replayedStepsAreNotLaunchedAgain() {
        struct Replay: StepReplaying {
            func recordedOutput<T: Sendable>(at address: StepAddress, as type: T.Type) throws -> T? {
                address.path.last?.index == 0 ? 100 as? T : nil
            }
        }
        let first = ScriptedOps([])
        let second = ScriptedOps([])
        let recorder = ScenarioRecorder()
        let scenario = Scenario<Int, Int>("Resume") { chain in
            chain.then(Step("First", first.make)).then(Step("Second", second.make))
        }
        let box = FinishBox<Int>()
        scenario.launch(
            OpContext(1, environment: OpEnvironment(observer: recorder, replay: Replay())), onFinish: box.onFinish)
        #expect(box.first?.success == 100)
        #expect(first.launchCount == 0)
        #expect(second.launchCount == 1)
        #expect(recorder.stepLines == ["First replayed", "Second launched #1", "Second succeeded #1"])
    }

    @Test func oneScenarioValueRunsConcurrentLaunchesIndependently() {
        let scenario = Scenario<Int, Int>("Concurrent") { chain in
            chain.then(Step { DoubleOp() }).then(Step { DoubleOp() })
        }
        let results = LockedState<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            scenario.launch(OpContext(index)) { result in
                if case .success(let value) = result { results.withLock { $0.append(value) } }
            }
        }
        #expect(results.withLock { $0.sorted() } == (0..<64).map { $0 * 4 })
    }

    @Test func purityComesFromTheOperationTypeUnlessOverridden() {
        #expect(Step { DoubleOp() }.purity == .pure)
        #expect(Step(ScriptedOps([]).makeWithSideEffects).purity == .sideEffects)
        #expect(Step({ DoubleOp() }, purity: .sideEffects).purity == .sideEffects)
    }

    @Test func aScenarioReportsTheEndItDelivered() {
        let recorder = ScenarioRecorder()
        let token = CancellationToken()
        let parked = LockedState<Completion<Int>?>(nil)
        let scenario = Scenario<Int, Int>("Race") { chain in
            chain.then(Step { ManualOp { completion in parked.withLock { $0 = completion } } })
        }
        let box = FinishBox<Int>()
        scenario.launch(
            OpContext(1, cancellation: token, environment: OpEnvironment(observer: recorder)), onFinish: box.onFinish)
        token.cancel()
        parked.withLock { $0 }?.succeed(1)
        #expect(box.first?.failure?.isCancellation == true)
        #expect(
            recorder.lines.filter { $0.hasPrefix("Race ") } == [
                "Race started", "Race failed: ManualOp cancelled: the operation was cancelled",
            ])
    }

    @Test func aReplayErrorIsAFirstAttemptFailure() throws {
        struct Unreadable: StepReplaying {
            struct Damaged: Error {}
            func recordedOutput<T: Sendable>(at address: StepAddress, as type: T.Type) throws -> T? { throw Damaged() }
        }
        let report = LaunchProbe.launch(
            Scenario<Int, Int>("Replay") { chain in chain.then(Step { DoubleOp() }) },
            context: OpContext(1, environment: OpEnvironment(replay: Unreadable())))
        let failure = try #require(report.error as? StepFailure)
        #expect(failure.attempt == 1)
        #expect(!failure.description.contains("0 attempts"))
    }
}
