/// An indivisible sequence of messages between services, launched once and finished once.
///
/// An operation has no imperative interface: it receives its key services through its
/// initialiser (usually from a factory) and exposes a single requirement, ``launch(_:onFinish:)``.
/// The name is `Op`, not `Operation`, so that files importing Foundation (which has its own
/// `Operation`) compile without qualification.
///
/// ## The contract a conformer keeps
///
/// - `onFinish` is called **exactly once** per launch: never zero times, never twice. A
///   synchronous operation calls it before `launch` returns; an asynchronous one later, from any
///   thread.
/// - A launched operation stays alive with no outside reference until it finishes and is
///   released right after.
/// - Cancellation and the deadline in the context end the launch with ``OpError/cancelled`` or
///   ``OpError/timedOut``; the real work's later finish is dropped.
///
/// ``Completion`` keeps all three for you, so a conformer only writes its own logic:
///
/// ```swift
/// final class PhoneOp: PureOp {
///     private let api: any AuthAPI
///     init(api: any AuthAPI) { self.api = api }
///
///     func launch(_ context: OpContext<PhoneNumber>, onFinish: @escaping OnFinish<PhoneSession>) {
///         let completion = Completion(retaining: self, context: context, onFinish: onFinish)
///         api.submitPhone(context.input) { completion.finish($0.mapError { $0 }) }
///     }
/// }
/// ```
public protocol Op<Input, Output>: AnyObject, Sendable {
    /// The value a launch needs, carried by ``OpContext/input``.
    associatedtype Input: Sendable
    /// The value a successful launch delivers to `onFinish`.
    associatedtype Output: Sendable

    /// Starts the operation with the launch-time values of `context` (input, token, deadline,
    /// environment); `onFinish` is called exactly once with the outcome, on any thread.
    func launch(_ context: OpContext<Input>, onFinish: @escaping OnFinish<Output>)
}

/// An operation that leaves its key services unchanged, so a failed launch can simply be
/// launched again without clean-up.
///
/// Conforming is a declaration the engine acts on (``Purity``):
/// - A retry policy retries a pure step's transient failures; a step with side effects only when
///   the policy says ``RetryPolicy/relaunchesSideEffects``, and then with the same
///   ``IdempotencyKey``.
/// - Journal resumption relaunches a pure step left in doubt (launched, never finished)
///   freely; a step with side effects only with the idempotency key of that attempt, or by the
///   caller's explicit choice (`JournalReplay/init(_:relaunchingInDoubt:sealer:)`).
/// - A pure step gets no idempotency key and its launch is not synced to the journal ahead of
///   time.
public protocol PureOp<Input, Output>: Op {}

/// An operation that changes key services, but whose relaunch is safe by nature: doing it twice
/// leaves the same state as doing it once (overwriting a file with the same bytes, a `PUT` of a
/// whole resource).
///
/// Resumption relaunches such an operation even when the journal says it finished, because its
/// effect lives outside the journal and may have been undone since; it never needs an
/// idempotency key.
public protocol IdempotentOp<Input, Output>: Op {}

/// An operation whose name in diagrams, progress and journals is not its type name — a
/// ``Scenario`` is called by the name it was given.
public protocol NamedOp: Op {
    /// The name to show.
    var name: String { get }
}

/// The completion an operation calls once with its outcome.
public typealias OnFinish<Output> = @Sendable (Result<Output, any Error>) -> Void

/// Whether relaunching an operation is free of consequences.
public enum Purity: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Leaves key services unchanged; safe to relaunch.
    case pure
    /// Changes key services, but doing it again is the same as doing it once (see
    /// ``IdempotentOp``); relaunched freely.
    case idempotent
    /// Changes key services (sends an SMS, charges a card); relaunched only when asked to, or
    /// with the idempotency key of its first attempt.
    case sideEffects

    /// The purity declared by an operation type: ``pure`` for ``PureOp`` conformers,
    /// ``idempotent`` for ``IdempotentOp`` conformers, ``sideEffects`` otherwise.
    public static func of<O: Op>(_ type: O.Type) -> Purity {
        if type is any PureOp.Type { return .pure }
        if type is any IdempotentOp.Type { return .idempotent }
        return .sideEffects
    }

    /// Whether launching again is free of consequences beyond the first launch's: pure or
    /// idempotent.
    public var relaunchesFreely: Bool { self != .sideEffects }

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String {
        switch self {
        case .pure: "pure"
        case .idempotent: "idempotent"
        case .sideEffects: "side effects"
        }
    }
}
