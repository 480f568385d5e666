import Foundation
import Operations
public import OperationsTesting

/// A flow beyond a chain, built from the engine's generic parts, for `opctl explore order`: the
/// command a team runs then catches what the engine's own explorations catch in a compensated
/// step, a parallel step and a durable poll.
///
/// `OrderScenario` reserves stock (undone by a release), charges the card and sends the receipt
/// at once (the charge undone by a refund), polls the payment every 20 minutes until it settles
/// (15 minutes after the charge on the wall clock, within 5 polls and 2 hours), and ships. The
/// stock is held for 45 minutes: when a restart an hour later (``Fault/restartLater``) comes
/// between the polls, the shipment is refused for good, the run is undone — the refund and the
/// release each made once — and no rerun may go past that. The ledger behind it honours keys
/// as a real server does, keeps its state over every process of a schedule, and counts each of
/// its effects with the world.
public enum CompositionExploration {
    /// The order every run places.
    public static let order = 7

    /// `OrderScenario` over a fresh ledger. It ends succeeded, or failed with nothing left held
    /// (the undoing released and refunded all it had to); either way the ledger must then be
    /// consistent: shipped with its stock and charge kept, or nothing held and every charge
    /// refunded.
    public static func orderFlow(_ world: FaultWorld) -> ExploredFlow<Int, Int> {
        let ledger = ExploredLedger(world: world)
        return ExploredFlow(
            scenario: scenario(ledger), input: order,
            finishedWhen: { result in
                if case .success = result { return true }
                return ledger.holdsNothing
            },
            finalCheck: { ledger.inconsistency })
    }

    /// The scenario over `ledger`.
    static func scenario(_ ledger: ExploredLedger) -> Scenario<Int, Int> {
        let retry = RetryPolicy(maxAttempts: 2, backoff: .immediate, relaunchesSideEffects: true) { error in
            (error as? any RetryableError)?.isTransient == true
        }
        func step(_ request: String, purity: Purity = .sideEffects) -> Step<Int, Int> {
            Step(LedgerOp.name(of: request), purity: purity) { LedgerOp(request, ledger) }.retrying(retry)
        }
        return Scenario<Int, Int>("OrderScenario") { chain in
            chain
                .then(step("reserve").compensated(by: step("release")))
                .parallel("PayAndNotify", step("charge").compensated(by: step("refund")), step("notify"))
                .map { charge, _ in charge }
                .then(
                    step("settlement", purity: .idempotent), repeatingEvery: .seconds(20 * 60), until: { $0 != 0 },
                    atMost: 5, givingUpAfter: .seconds(2 * 3_600)
                )
                .then(step("ship"))
        }
    }
}

/// The store's ledger behind `OrderScenario`: each request meets the world's fault for it, acts
/// at most once per key, and remembers what it holds across every process of a schedule.
final class ExploredLedger: Sendable {
    /// The request did not reach the ledger; nothing acted.
    struct Unreachable: Error, RetryableError, CustomStringConvertible {
        var isTransient: Bool { true }
        var description: String { "the ledger is unreachable" }
    }

    /// The shipment was refused: the order's stock is no longer held.
    struct ReservationExpired: Error, CustomStringConvertible {
        var description: String { "the reservation expired" }
    }

    /// The ledger acted, and its answer was lost.
    struct LostAnswer: Error, RetryableError, OutcomeUncertainError, CustomStringConvertible {
        var isTransient: Bool { true }
        var outcomeIsUncertain: Bool { true }
        var description: String { "the ledger's answer was lost" }
    }

    private struct State {
        var answers: [String: Int] = [:]
        var reserved: Set<Int> = []
        /// When each reservation was made, and the reservation each charge pays for.
        var reservedAt: [Int: Date] = [:]
        var paysFor: [Int: Int] = [:]
        /// Each charge and when it was made, on the wall clock of the process that made it.
        var charges: [Int: Date] = [:]
        var refunded: Set<Int> = []
        var shipped: Set<Int> = []
    }

    private let world: FaultWorld
    private let state = LockedState(State())

    /// How long after its charge a payment settles.
    static let settlesAfter: TimeInterval = 15 * 60
    /// How long stock stays reserved.
    static let reservationHolds: TimeInterval = 45 * 60

    init(world: FaultWorld) {
        self.world = world
    }

    /// Whether nothing is held: no stock reserved, no charge kept, nothing shipped.
    var holdsNothing: Bool {
        state.withLock { $0.reserved.isEmpty && $0.shipped.isEmpty && Set($0.charges.keys) == $0.refunded }
    }

    /// What is wrong with the ledger once the run is over, or `nil`: an order is either shipped
    /// with its stock and its charge, or holds nothing.
    var inconsistency: String? {
        state.withLock { state in
            let kept = Set(state.charges.keys).subtracting(state.refunded)
            if state.shipped.isEmpty {
                guard state.reserved.isEmpty && kept.isEmpty else {
                    return
                        "the order was not shipped and still holds stock \(state.reserved.sorted()), charges \(kept.sorted())"
                }
                return nil
            }
            guard state.reserved.count == 1 && kept.count == 1 else {
                return "the order was shipped with stock \(state.reserved.sorted()) and charges \(kept.sorted())"
            }
            return nil
        }
    }

    /// Sends one request of `kind` with `input`, under `key` when the step has one.
    func act(_ kind: String, _ input: Int, key: IdempotencyKey?) -> Result<Int, any Error> {
        let fault = world.request(kind)
        switch fault {
        case .failBeforeActing?, .serverError?, .tooManyRequests?: return .failure(Unreachable())
        default: break
        }
        let now = world.scheduler.wallClock
        let answer: Result<Int, any Error> = state.withLock { state in
            let slot = key.map { "\(kind)/\($0.rawValue)" }
            if let slot, let kept = state.answers[slot] { return .success(kept) }
            let answer: Int
            switch kind {
            case "reserve":
                answer = input * 10 + 1
                state.reserved.insert(answer)
                state.reservedAt[answer] = now
            case "release":
                state.reserved.remove(input)
                answer = input
            case "charge":
                answer = input * 10 + 2
                state.charges[answer] = now
                state.paysFor[answer] = input
            case "refund":
                state.refunded.insert(input)
                answer = input
            case "settlement":
                // A question, not an act: the same answer whenever asked at the same time.
                let settled = state.charges[input].map { now.timeIntervalSince($0) >= Self.settlesAfter } ?? false
                return .success(settled ? input : 0)
            case "ship":
                let since = state.paysFor[input].flatMap { state.reservedAt[$0] }
                guard let since, now.timeIntervalSince(since) < Self.reservationHolds else {
                    return .failure(ReservationExpired())
                }
                answer = input * 10 + 3
                state.shipped.insert(answer)
            default:
                answer = input
            }
            world.performed(kind)
            if let slot { state.answers[slot] = answer }
            return .success(answer)
        }
        guard case .success = answer else { return answer }
        return fault == .loseAnswer || fault == .timeOut ? .failure(LostAnswer()) : answer
    }
}

/// One request to the ledger, drawn as its own operation (`ReserveOp` for `reserve`), sent with
/// the launch's key when its step has side effects.
final class LedgerOp: NamedOp {
    private let request: String
    private let ledger: ExploredLedger

    var name: String { Self.name(of: request) }

    /// `ReserveOp` for `reserve`.
    static func name(of request: String) -> String {
        request.prefix(1).uppercased() + request.dropFirst() + "Op"
    }

    init(_ request: String, _ ledger: ExploredLedger) {
        self.request = request
        self.ledger = ledger
    }

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.finish(ledger.act(request, context.input, key: context.idempotencyKey(for: request)))
    }
}
