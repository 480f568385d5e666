import Foundation
import Operations
import OperationsJournal
import OperationsTesting
import Testing

/// Never twice while undoing: the fault explorer runs an undoing under every schedule of one
/// fault and random ones of two (every one of two with OPCTL_STRESS=1, see ExplorationDepth) —
/// lost answers, outages, kills, full disks inside the compensation — and finds no
/// request acted on twice, no run left unfinished and nothing left reserved
/// (ParallelExplorerTests does the same inside a parallel step).
struct BeyondAChainExplorationTests {
    /// A service that honours keys as a real server would, each request named by its kind.
    final class KeyedService: Sendable {
        let world: FaultWorld
        private let answers = LockedState<[String: Int]>([:])
        private let held = LockedState<Set<String>>([])

        init(world: FaultWorld) { self.world = world }

        struct Unreachable: Error, RetryableError { var isTransient: Bool { true } }
        struct LostAnswer: Error, RetryableError, OutcomeUncertainError {
            var isTransient: Bool { true }
            var outcomeIsUncertain: Bool { true }
        }
        struct Declined: Error, CustomStringConvertible { var description: String { "declined" } }

        /// What is reserved and not released.
        var holdings: Set<String> { held.withLock { $0 } }

        func act(_ kind: String, _ input: Int, key: IdempotencyKey?) -> Result<Int, any Error> {
            let fault = world.request(kind)
            switch fault {
            case .failBeforeActing?, .serverError?, .tooManyRequests?: return .failure(Unreachable())
            default: break
            }
            let answer: Int = answers.withLock { answers in
                let slot = key.map { "\(kind)/\($0.rawValue)" }
                if let slot, let kept = answers[slot] { return kept }
                world.performed(kind)
                if kind == "reserve" { _ = held.withLock { $0.insert("r\(input)") } }
                if kind == "release" { _ = held.withLock { $0.remove("r\(input - 1)") } }
                if let slot { answers[slot] = input + 1 }
                return input + 1
            }
            return fault == .loseAnswer || fault == .timeOut ? .failure(LostAnswer()) : .success(answer)
        }
    }

    /// An operation with side effects that sends one request of `kind` with the launch's key.
    final class RequestOp: Op {
        let kind: String
        let service: KeyedService
        init(_ kind: String, _ service: KeyedService) {
            self.kind = kind
            self.service = service
        }
        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            completion.finish(service.act(kind, context.input, key: context.idempotencyKey(for: kind)))
        }
    }

    /// Always refuses, for good: the flow must end failed and undone.
    final class DeclineOp: Op {
        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            Completion(retaining: self, context: context, onFinish: onFinish).fail(KeyedService.Declined())
        }
    }

    private static let retry = RetryPolicy(maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true) { _ in
        true
    }

    private static func step(_ kind: String, _ service: KeyedService) -> Step<Int, Int> {
        Step(kind) { RequestOp(kind, service) }.retrying(retry)
    }

    @Test func anUndoingReleasesOnceUnderEveryScheduleOfTwoFaults() async {
        let explorer = FaultExplorer(depth: .suite) { world in
            let service = KeyedService(world: world)
            let scenario = Scenario<Int, Int>("Undone") { chain in
                chain
                    .then(Self.step("reserve", service).compensated(by: Self.step("release", service)))
                    .then(Step("Decline", purity: .sideEffects) { DeclineOp() })
            }
            return ExploredFlow(
                scenario: scenario, input: 1,
                finishedWhen: { result in
                    guard case .failure(let error) = result, let cause = (error as? StepFailure)?.rootCause else {
                        return false
                    }
                    // A rerun fails the step again with the error its journal recorded.
                    return cause is KeyedService.Declined || (cause as? RecordedError)?.description == "declined"
                },
                finalCheck: {
                    service.holdings.isEmpty ? nil : "left reserved: \(service.holdings.sorted())"
                })
        }
        // On a thread of its own: a long exploration on the test pool would starve the async tests.
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 100, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }
}
