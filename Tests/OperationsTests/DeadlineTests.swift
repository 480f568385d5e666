import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

struct DeadlineTests {
    @Test func anOperationPastItsDeadlineFinishesOnceWithTimedOut() {
        let scheduler = TestScheduler()
        let diagnostics = DiagnosticsRecorder()
        let environment = OpEnvironment(scheduler: scheduler, diagnostics: diagnostics)
        let context = OpContext(1, environment: environment).withTimeout(.seconds(3))
        let box = FinishBox<Int>()
        StuckOp().launch(context, onFinish: box.onFinish)

        scheduler.advance(by: .milliseconds(2_999))
        #expect(box.count == 0)
        scheduler.advance(by: .milliseconds(1))
        #expect(box.count == 1)
        #expect(box.first?.failure as? OpError == .timedOut)
    }

    @Test func finishingBeforeTheDeadlineCancelsTheTimer() throws {
        let scheduler = TestScheduler()
        let context = OpContext(1, environment: OpEnvironment(scheduler: scheduler)).withTimeout(.seconds(1))
        let report = LaunchProbe.launch(DoubleOp(), context: context)
        #expect(try report.value() == 2)
        #expect(scheduler.pendingCount == 0)
    }

    @Test func aNarrowerTimeoutNeverExtendsAnEarlierDeadline() {
        let scheduler = TestScheduler()
        let context = OpContext(1, environment: OpEnvironment(scheduler: scheduler)).withTimeout(.seconds(1))
        let widened = context.withTimeout(.seconds(10))
        #expect(widened.deadline == context.deadline)
    }
}
