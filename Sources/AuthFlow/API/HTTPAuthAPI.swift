public import Foundation
import Operations

/// ``AuthAPI`` as an HTTP/JSON client over an ``HTTPTransport``: the same code path against a real
/// server (``PlainHTTPTransport``, or `URLSessionTransport` from AuthFlowURLSession for TLS) and
/// the embedded `SimulatedBackend` (AuthSimulator).
///
/// The client only chooses endpoints, sends, times out and decodes; the parts of HTTP around that
/// are its ``Hooks``, values each replaceable on its own: making the request (headers, credential,
/// idempotency key), judging the response before its body is read (status, a body cut off, HTML
/// where JSON was expected), and turning an error answer or a transport failure into
/// ``AuthError``.
///
/// Each call's ``AuthCall`` reaches the wire: its cancellation abandons the request (the
/// transport closes the connection), its scheduler runs the timeout, and its idempotency key
/// goes out as the `Idempotency-Key` header of every `POST`.
///
/// ```swift
/// let api = HTTPAuthAPI(transport: SimulatedBackend())
/// api.submitPhone(try PhoneNumber(parsing: "+7 999 123-45-67"), call: AuthCall()) { result in … }
///
/// // The same client with an extra header on every request:
/// let tagged = HTTPAuthAPI(
///     transport: URLSessionTransport(baseURL: url),
///     hooks: HTTPAuthAPI.Hooks(additionalHeaders: ["X-App-Version": "2.1"]))
/// ```
public struct HTTPAuthAPI: AuthAPI {
    private let transport: any HTTPTransport
    private let timeout: Duration
    private let now: @Sendable () -> Date
    private let hooks: Hooks

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: Where requests go.
    ///   - timeout: How long each request may take before it completes with ``AuthError/timeout``;
    ///     enforced by the client itself on the call's ``AuthCall/scheduler``, whatever the
    ///     transport does, and the request is then cancelled so its connection closes.
    ///   - now: The clock that turns `expiresIn` into an expiry date.
    ///   - hooks: Make each request, judge each response and read failures; the contract's by
    ///     default.
    public init(
        transport: any HTTPTransport, timeout: Duration = .seconds(15),
        now: @escaping @Sendable () -> Date = { Date() }, hooks: Hooks = Hooks()
    ) {
        self.transport = transport
        self.timeout = timeout
        self.now = now
        self.hooks = hooks
    }

    /// Starts a sign-in attempt: `POST /v1/auth/phone`.
    public func submitPhone(
        _ phone: PhoneNumber, call: AuthCall, completion: @escaping @Sendable (Result<PhoneSession, AuthError>) -> Void
    ) {
        perform(AuthWireFormat.submitPhone(phone), call, completion, AuthWireFormat.phoneSession(from:))
    }

    /// Fetches the terms: `GET /v1/auth/terms`.
    public func fetchTerms(
        phoneToken: PhoneToken, call: AuthCall, completion: @escaping @Sendable (Result<TermsOfUse, AuthError>) -> Void
    ) {
        perform(AuthWireFormat.fetchTerms(phoneToken: phoneToken), call, completion, AuthWireFormat.terms(from:))
    }

    /// Accepts the terms: `POST /v1/auth/terms/accept`.
    public func acceptTerms(
        version: String, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<TermsAcceptance, AuthError>) -> Void
    ) {
        let request = AuthWireFormat.acceptTerms(version: version, phoneToken: phoneToken)
        perform(request, call, completion, AuthWireFormat.termsAcceptance(from:now:))
    }

    /// Sends the SMS code: `POST /v1/auth/code/send`.
    public func sendCode(
        phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<CodeDelivery, AuthError>) -> Void
    ) {
        perform(AuthWireFormat.sendCode(phoneToken: phoneToken), call, completion, AuthWireFormat.codeDelivery(from:))
    }

    /// Exchanges the code for an access token: `POST /v1/auth/code/verify`.
    public func verifyCode(
        _ code: SMSCode, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<AuthToken, AuthError>) -> Void
    ) {
        perform(
            AuthWireFormat.verifyCode(code, phoneToken: phoneToken), call, completion,
            AuthWireFormat.authToken(from:now:))
    }

    /// Checks a saved access token: `GET /v1/auth/session`.
    public func fetchSession(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<SessionStatus, AuthError>) -> Void
    ) {
        perform(
            AuthWireFormat.fetchSession(authToken: authToken), call, completion, AuthWireFormat.sessionStatus(from:))
    }

    /// Revokes an access token: `POST /v1/auth/sign-out`.
    public func signOut(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<Void, AuthError>) -> Void
    ) {
        perform(AuthWireFormat.signOut(authToken: authToken), call, completion, AuthWireFormat.signedOut(from:))
    }

    /// The call of the `perform` below, with a decoder that needs no clock.
    private func perform<Value: Sendable>(
        _ call: AuthRequest, _ options: AuthCall, _ completion: @escaping @Sendable (Result<Value, AuthError>) -> Void,
        _ decode: @escaping @Sendable (HTTPResponse) throws(AuthError) -> Value
    ) {
        perform(call, options, completion) { response, _ throws(AuthError) in try decode(response) }
    }

    /// Builds the call's request, sends it, races it against the timeout and the call's
    /// cancellation, and reads the answer through the hooks: judged, then `decode` or the error.
    ///
    /// The transport gets a token of its own, linked to the call's: the timeout fires it too, so
    /// a request that timed out is cancelled on the wire instead of holding its connection.
    private func perform<Value: Sendable>(
        _ call: AuthRequest, _ options: AuthCall, _ completion: @escaping @Sendable (Result<Value, AuthError>) -> Void,
        _ decode: @escaping @Sendable (HTTPResponse, Date) throws(AuthError) -> Value
    ) {
        var call = call
        call.timeout = timeout
        call.idempotencyKey = options.idempotencyKey
        let request = hooks.makeRequest(call)
        let once = CompletionOnce(completion)
        let stop = CancellationToken(linkedTo: options.cancellation)
        // Delivered on the cancelling thread, at once: a hop through a global queue could wait behind a
        // starved pool. The launch's end reads the same either way: ``AuthError/cancelled`` is a
        // cancellation (``CancellationDescribing``), as uncertain as its own (``AuthError/outcomeIsUncertain``).
        stop.onCancel { once.complete(.failure(.cancelled)) }
        let timer = options.scheduler.schedule(after: timeout) {
            once.complete(.failure(.timeout))
            stop.cancel()
        }
        once.onComplete = timer
        let (now, hooks) = (self.now, self.hooks)
        transport.send(request, cancellation: stop) { result in
            let response: HTTPResponse
            switch result {
            case .failure(let failure):
                once.complete(.failure(hooks.transportFailure(failure, request)))
                return
            case .success(let received):
                response = received
            }
            do throws(AuthError) {
                switch try hooks.validate(response, request) {
                case .success: once.complete(.success(try decode(response, now())))
                case .errorResponse:
                    once.complete(.failure(hooks.errorAnswer(response, request, now())))
                }
            } catch {
                once.complete(.failure(error))
            }
        }
    }
}

/// Delivers the first result only: the transport's answer and the timeout race, and the loser is
/// dropped so the caller's completion runs exactly once.
///
/// The completion is released as soon as it has run, and the pending timeout timer is cancelled,
/// so neither keeps the caller (an operation) alive until the deadline.
private final class CompletionOnce<Value: Sendable>: Sendable {
    private struct State {
        var completion: (@Sendable (Result<Value, AuthError>) -> Void)?
        var timer: (any ScheduledWork)?
    }
    private let state: LockedState<State>

    init(_ completion: @escaping @Sendable (Result<Value, AuthError>) -> Void) {
        state = LockedState(State(completion: completion))
    }

    /// The timeout to cancel when the first result arrives; cancelled at once if it already has.
    var onComplete: (any ScheduledWork)? {
        get { state.withLock { $0.timer } }
        set {
            let finished = state.withLock { state in
                state.timer = newValue
                return state.completion == nil
            }
            if finished { newValue?.cancel() }
        }
    }

    func complete(_ result: Result<Value, AuthError>) {
        let (pending, timer) = state.withLock { state in
            defer {
                state.completion = nil
                state.timer = nil
            }
            return (state.completion, state.timer)
        }
        guard let pending else { return }
        timer?.cancel()
        pending(result)
    }
}
