import Foundation
import Operations
import OperationsTestSupport
import Testing

/// Retries and failure-handler relaunches of operations that finish inside their own launch run
/// in constant stack depth: each test runs on a 512 KiB thread, where nesting a launch per
/// attempt overflowed after a few hundred attempts.
struct StackDepthTests {
    /// Runs `body` on a thread with a small stack and waits for the box's first delivery.
    private func onSmallStack<Value>(_ box: FinishBox<Value>, _ body: @escaping @Sendable () -> Void)
        -> Result<Value, any Error>?
    {
        let thread = Thread(block: body)
        thread.stackSize = 512 * 1024
        thread.start()
        return box.wait()
    }

    @Test func aHundredThousandImmediateRetriesDoNotGrowTheStack() {
        let attempts = 100_000
        let ops = ScriptedOps(Array(repeating: .failure(.flaky), count: attempts - 1) + [.success(7)])
        let scenario = Scenario<Int, Int>("Flaky") { chain in
            chain.then(Step(ops.make).retrying(.transient(maxAttempts: attempts, backoff: .immediate)))
        }
        let box = FinishBox<Int>()
        let result = onSmallStack(box) { scenario.launch(OpContext(1), onFinish: box.onFinish) }
        #expect(result?.success == 7)
        #expect(ops.launchCount == attempts)
        #expect(box.count == 1)
    }

    /// A branch of a parallel step makes its run's loop only when it first retries; its
    /// retries then take that loop, as a chained step's do.
    @Test func aHundredThousandImmediateRetriesInAParallelBranchDoNotGrowTheStack() {
        let attempts = 100_000
        let ops = ScriptedOps(Array(repeating: .failure(.flaky), count: attempts - 1) + [.success(7)])
        let flaky = Step(ops.make).retrying(.transient(maxAttempts: attempts, backoff: .immediate))
        let scenario = Scenario<Int, [Int]>("FlakyBranch") { chain in
            chain.parallel("Both", [flaky, Step("Echo") { ScriptedOps([]).make() }])
        }
        let box = FinishBox<[Int]>()
        let result = onSmallStack(box) { scenario.launch(OpContext(1), onFinish: box.onFinish) }
        #expect(result?.success == [7, 1])
        #expect(ops.launchCount == attempts)
        #expect(box.count == 1)
    }

    @Test func tenThousandSynchronousHandlerRelaunchesDoNotGrowTheStack() {
        let relaunches = 10_000
        let ops = ScriptedOps(Array(repeating: .failure(.broken), count: relaunches) + [.success(7)])
        let scenario = Scenario<Int, Int>("Stubborn") { chain in
            chain.then(Step(ops.make).onFailure { failure, decide in decide(.relaunch(failure.input + 1)) })
        }
        let box = FinishBox<Int>()
        let result = onSmallStack(box) { scenario.launch(OpContext(1), onFinish: box.onFinish) }
        #expect(result?.success == 7)
        #expect(ops.launchCount == relaunches + 1)
        #expect(box.count == 1)
    }

    @Test func aChainOfFiveThousandSynchronousStepsDoesNotGrowTheStack() {
        let steps = 5_000
        let ops = ScriptedOps([])  // an empty script echoes the input
        let scenario = Scenario<Int, Int>("Long") { chain in
            (0..<steps).reduce(chain) { built, _ in
                built.then(Step(ops.make)).map { $0 + 1 }
            }
        }
        let box = FinishBox<Int>()
        let result = onSmallStack(box) { scenario.launch(OpContext(0), onFinish: box.onFinish) }
        #expect(result?.success == steps)
        #expect(ops.launchCount == steps)
        #expect(box.count == 1)
    }

    @Test func aChainOfConditionalAndCombinedStepsDoesNotGrowTheStack() {
        let steps = 3_000
        let ops = ScriptedOps([])
        let scenario = Scenario<Int, Int>("Mixed") { chain in
            (0..<steps).reduce(chain) { built, index in
                built
                    .then(Step(ops.make), when: { _ in index % 2 == 0 })
                    .then(Step(ops.make), input: { $0 }, combine: { current, _ in current + 1 })
            }
        }
        let box = FinishBox<Int>()
        let result = onSmallStack(box) { scenario.launch(OpContext(0), onFinish: box.onFinish) }
        #expect(result?.success == steps)
        #expect(ops.launchCount == steps + steps / 2)
    }

    @Test func aLongChainOfSynchronousStepsStillFinishesBeforeLaunchReturns() {
        let ops = ScriptedOps([])
        let scenario = Scenario<Int, Int>("Long") { chain in
            (0..<200).reduce(chain) { built, _ in built.then(Step(ops.make)).map { $0 + 1 } }
        }
        let box = FinishBox<Int>()
        scenario.launch(OpContext(0), onFinish: box.onFinish)
        // No wait: a chain of operations that finish inside their launch is over when it returns.
        #expect(box.count == 1)
        #expect(box.wait(timeout: .zero)?.success == 200)
    }
}
