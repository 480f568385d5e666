import Dispatch
import Operations
import OperationsTestSupport
import Testing

/// The production scheduler lets go of cancelled work at once: a finished launch with a
/// deadline must not keep its timer, and what the timer captured, until the deadline instant.
struct DispatchSchedulerTests {
    private final class Captured: Sendable {}

    @Test func cancelledWorkIsReleasedBeforeItsInstant() {
        let queue = DispatchQueue(label: "DispatchSchedulerTests")
        let scheduler = DispatchScheduler(queue: queue)
        weak var released: Captured?
        do {
            let captured = Captured()
            released = captured
            let work = scheduler.schedule(after: .seconds(3_600)) { _ = captured }
            work.cancel()
        }
        // Released when cancel() returns, an hour before its instant.
        #expect(released == nil)
    }

    @Test func scheduledWorkRunsOnceAndIsThenReleased() async {
        let queue = DispatchQueue(label: "DispatchSchedulerTests.run")
        let scheduler = DispatchScheduler(queue: queue)
        weak var released: Captured?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let captured = Captured()
            released = captured
            _ = scheduler.schedule(after: .zero) {
                _ = captured
                continuation.resume()
            }
        }
        queue.sync {}
        queue.sync {}
        #expect(released == nil)
    }
}
