import Foundation
import Operations
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
        return box.wait(timeout: .seconds(120))
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
}
