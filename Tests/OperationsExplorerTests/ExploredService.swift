import Operations
import OperationsTesting

/// The service the explorations in these tests talk to: each request of a kind meets the fault
/// the world's schedule gives it, and keys are honoured as a real server honours them (a repeat
/// of a kind with the same key gets the first answer back, and acts no more).
final class ExploredService: Sendable {
    struct Unreachable: Error, RetryableError { var isTransient: Bool { true } }
    struct LostAnswer: Error, RetryableError, OutcomeUncertainError {
        var isTransient: Bool { true }
        var outcomeIsUncertain: Bool { true }
    }
    struct Declined: Error, CustomStringConvertible { var description: String { "declined" } }

    let world: FaultWorld
    private let answer: @Sendable (_ kind: String, _ input: Int) -> Int
    private let answers = LockedState<[String: Int]>([:])
    private let held = LockedState<Set<String>>([])

    /// - Parameter answer: What a request of `kind` with `input` answers when it acts.
    init(world: FaultWorld, answer: @escaping @Sendable (_ kind: String, _ input: Int) -> Int = { $1 + 1 }) {
        self.world = world
        self.answer = answer
    }

    /// What `reserve` requests reserved and `release` requests have not released.
    var holdings: Set<String> { held.withLock { $0 } }

    func act(_ kind: String, _ input: Int, key: IdempotencyKey?) -> Result<Int, any Error> {
        let fault = world.request(kind)
        switch fault {
        case .failBeforeActing?, .serverError?, .tooManyRequests?: return .failure(Unreachable())
        default: break
        }
        let result: Int = answers.withLock { answers in
            let slot = key.map { "\(kind)/\($0.rawValue)" }
            if let slot, let kept = answers[slot] { return kept }
            world.performed(kind)
            if kind == "reserve" { _ = held.withLock { $0.insert("r\(input)") } }
            if kind == "release" { _ = held.withLock { $0.remove("r\(input - 1)") } }
            let result = answer(kind, input)
            if let slot { answers[slot] = result }
            return result
        }
        return fault == .loseAnswer || fault == .timeOut ? .failure(LostAnswer()) : .success(result)
    }
}

/// An operation with side effects that sends one request of `kind`, with the launch's key
/// unless `sendsKey` plants the defect the explorer must catch. Drawn as its kind's operation
/// (`ChargeOp` for `charge`), as an operation of its own would be.
final class ExploredRequestOp: NamedOp {
    let kind: String
    let service: ExploredService
    let sendsKey: Bool

    var name: String { kind.prefix(1).uppercased() + kind.dropFirst() + "Op" }

    init(_ kind: String, _ service: ExploredService, sendsKey: Bool = true) {
        self.kind = kind
        self.service = service
        self.sendsKey = sendsKey
    }

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let key = sendsKey ? context.idempotencyKey(for: kind) : nil
        completion.finish(service.act(kind, context.input, key: key))
    }
}
