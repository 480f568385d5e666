import Dispatch
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// The async test helpers wait without holding a thread of the shared pool, and give up with an
/// error instead of hanging a test.
struct AsyncTestSupportTests {
    /// Answers on a Dispatch queue, like a network service: fails transiently `failures` times.
    private final class QueuedOp: PureOp {
        private let failures: LockedState<Int>

        private static let queue = DispatchQueue(label: "AsyncTestSupportTests.service")

        init(failures: LockedState<Int>) { self.failures = failures }

        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            let failures = failures
            // A queue of its own, like a service's: it gets a thread even while the shared pool
            // is busy with the rest of the suite.
            Self.queue.async {
                let fail = failures.withLock { count in
                    defer { count -= 1 }
                    return count > 0
                }
                if fail { completion.fail(TestError.flaky) } else { completion.succeed(context.input * 10) }
            }
        }
    }

    @Test func launchAndAwaitReturnsWhatAQueuedOperationFinishesWith() async throws {
        let op = QueuedOp(failures: LockedState(0))
        #expect(try await op.launchAndAwait(OpContext(4)) == 40)
    }

    @Test func launchAndAwaitGivesUpOnAnOperationThatNeverFinishes() async throws {
        let stuck = StuckOp()
        await #expect(throws: LaunchProbeError.neverFinished(operation: "StuckOp")) {
            try await stuck.launchAndAwait(OpContext(1), timeout: .milliseconds(50))
        }
    }

    @Test func awaitLaunchReportsTheContractFromItsOwnThread() async throws {
        let report = await LaunchProbe.awaitLaunch({ QueuedOp(failures: LockedState(0)) }, context: OpContext(2))
        #expect(report.keptContract)
        #expect(try report.value() == 20)
    }

    @Test func theSchedulerIsAdvancedOnlyOnceTheRetryIsWaiting() async throws {
        let scheduler = TestScheduler()
        let failures = LockedState(1)
        let scenario = Scenario<Int, Int>("S") { chain in
            chain.then(
                Step("Fetch") { QueuedOp(failures: failures) }.retrying(
                    .transient(maxAttempts: 2, backoff: Backoff(initial: .seconds(1), cap: .seconds(1), jitter: 0))))
        }
        let context = OpContext(3, environment: OpEnvironment(scheduler: scheduler, random: { 0 }))
        let box = FinishBox<Int>()
        scenario.launch(context, onFinish: box.onFinish)
        // The first attempt fails on a queue; only then is its retry's backoff scheduled.
        try await scheduler.waitForPendingWork()
        #expect(scheduler.pendingCount == 1)
        scheduler.advance(by: .seconds(1))
        #expect(box.wait()?.success == 30)
    }

    @Test func waitingForWorkThatNeverComesFailsWithWhatWasPending() async {
        let scheduler = TestScheduler()
        await #expect(throws: TestSchedulerError.notScheduled(expected: 2, pending: 0, timeout: .milliseconds(50))) {
            try await scheduler.waitForPendingWork(atLeast: 2, timeout: .milliseconds(50))
        }
    }

    @Test func theProbeKeepsTheCallersIdempotencyKeys() throws {
        let seen = LockedState<[String]>([])
        let context = OpContext(
            1, environment: OpEnvironment(makeIdempotencyKey: IdempotencyKey.sequence(prefix: "abc")))
        let report = LaunchProbe.launch(
            Scenario<Int, Int>("Checkout") { chain in
                chain.then(Step("Charge", purity: .sideEffects) { KeyReader(seen: seen) })
            }, context: context)
        #expect(report.keptContract)
        #expect(report.operation == "Checkout")
        #expect(seen.withLock { $0 } == ["0000000000000abc0000000000000001"])
    }

    private final class KeyReader: PureOp {
        let seen: LockedState<[String]>
        init(seen: LockedState<[String]>) { self.seen = seen }
        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            seen.withLock { $0.append(context.idempotencyKey?.rawValue ?? "none") }
            Completion(retaining: self, context: context, onFinish: onFinish).succeed(context.input)
        }
    }
}
