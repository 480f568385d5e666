import Foundation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

/// Waits survive restarts (contract 18) under the explorer: the process is killed while it waits
/// between polls and restarted at once, or an hour later (`Fault.restartLater`), and Ctrl-C is
/// pressed there; every schedule of one fault and random ones of two (every one of two with
/// OPCTL_STRESS=1, see ExplorationDepth). The poll never answers "done", so the run must give up
/// — after its 6 polls or its 70 minutes from the first poll, counted across every process — and
/// be undone, and no rerun may go past that.
struct WaitsAcrossRestartsExplorationTests {
    /// The status a person's verification never leaves: "pending". Every time it is asked, on the
    /// asking process's wall clock, is kept.
    final class StatusDesk: Sendable {
        let world: FaultWorld
        private let asked = LockedState<[Date]>([])

        init(world: FaultWorld) { self.world = world }

        /// The times the status was asked, each once: a poll launched again in a rerun at the
        /// same time (its answer was never journaled) is the same poll.
        var polls: [Date] { Array(Set(asked.withLock { $0 })).sorted() }

        func status() -> Result<Int, any Error> {
            let fault = world.request("status")
            switch fault {
            case .failBeforeActing?, .serverError?, .tooManyRequests?: return .failure(ExploredService.Unreachable())
            default: break
            }
            let now = world.scheduler.wallClock
            asked.withLock { $0.append(now) }
            return fault == .loseAnswer || fault == .timeOut ? .failure(ExploredService.LostAnswer()) : .success(0)
        }
    }

    final class StatusOp: Op {
        let desk: StatusDesk
        init(_ desk: StatusDesk) { self.desk = desk }

        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            Completion(retaining: self, context: context, onFinish: onFinish).finish(desk.status())
        }
    }

    static let polls = 6
    static let limit: TimeInterval = 70 * 60

    private static let retry = RetryPolicy(maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true) { _ in
        true
    }

    /// Reserve (undone by a release), then poll the status every 20 minutes, at most 6 times and
    /// for 70 minutes. `check` says what must hold of the desk's polls once the run is over.
    private static func explorer(
        depth: ExplorationDepth, check: @escaping @Sendable ([Date]) -> String?
    ) -> FaultExplorer<Int, Int> {
        FaultExplorer(depth: depth) { world in
            let service = ExploredService(world: world)
            let desk = StatusDesk(world: world)
            let scenario = Scenario<Int, Int>("Verify") { chain in
                chain
                    .then(
                        Step("reserve") { ExploredRequestOp("reserve", service) }.retrying(retry)
                            .compensated(by: Step("release") { ExploredRequestOp("release", service) }.retrying(retry))
                    )
                    .then(
                        Step("Status", purity: .idempotent) { StatusOp(desk) }.retrying(retry),
                        repeatingEvery: .seconds(20 * 60), until: { $0 != 0 }, atMost: polls,
                        givingUpAfter: .seconds(limit))
            }
            return ExploredFlow(
                scenario: scenario, input: 1,
                finishedWhen: { result in
                    if case .failure = result { return service.holdings.isEmpty }
                    return false
                },
                finalCheck: {
                    let held = service.holdings
                    return held.isEmpty ? check(desk.polls) : "left reserved: \(held.sorted())"
                })
        }
    }

    /// Contract 18's limits, as the desk saw them: no more polls than allowed over every process,
    /// and none past the overall limit but the one a restart found overdue (which gives up).
    private static func limitsHeld(_ polls: [Date]) -> String? {
        guard let first = polls.first else { return nil }
        if polls.count > Self.polls {
            return "the status was polled \(polls.count) times, more than the \(Self.polls) allowed"
        }
        let late = polls.filter { $0.timeIntervalSince(first) > limit }
        if late.count > 1 {
            let minutes = late.map { "\(Int($0.timeIntervalSince(first) / 60)) min" }.joined(separator: ", ")
            return "the status was polled past its 70-minute limit at \(minutes)"
        }
        return nil
    }

    @Test func aPollThatNeverEndsGivesUpOnceWhateverRestartsCameBetween() async {
        let explorer = Self.explorer(depth: .suite, check: Self.limitsHeld)
        // On a thread of its own: a long exploration on the test pool would starve the async tests.
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 100, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func aRestartLaterIsExploredAndItsProcessStartsAnHourOn() async throws {
        // A check that fails whenever two polls are an hour apart: only a later restart does that.
        let explorer = Self.explorer(depth: .quick(randomSchedules: 0)) { polls in
            let gaps = zip(polls, polls.dropFirst()).map { $1.timeIntervalSince($0) }
            return gaps.contains { $0 >= 3_600 } ? "polls an hour apart" : nil
        }
        let report = await OwnThread.run { explorer.explore() }
        let violation = try #require(report.violations.first, "no schedule restarted an hour later")
        #expect(violation.problems == ["polls an hour apart"], "\(violation)")
        #expect(violation.schedule.entries.map(\.fault) == [.restartLater], "\(violation)")
    }
}
