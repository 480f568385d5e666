public import AuthFlow
import Dispatch
public import Operations

/// An ``AuthAPI`` that answers from closures a test sets up, one per method, and records every
/// call: the backend of pure-operation tests, with no HTTP and no simulator.
///
/// A method the test did not set up reports through the `unimplemented` closure and fails with
/// ``UnimplementedAuthAPI/error(for:)``, so an unexpected call fails the test loudly; a stub
/// with nothing set up fails every call.
///
/// ```swift
/// let api = StubAuthAPI(
///     submitPhone: { _ in .success(PhoneSession(phoneToken: token, termsRequired: false, codeLength: 6)) },
///     unimplemented: { Issue.record("unexpected call of \($0)") })
/// let report = LaunchProbe.launch(PhoneOp(api: api, screens: screens), input: nil)
/// #expect(api.calls == [.submitPhone(phone)])
/// ```
public final class StubAuthAPI: AuthAPI {
    /// One call the stub received, with its arguments.
    public enum Call: Sendable, Hashable {
        /// ``AuthAPI/submitPhone(_:call:completion:)``.
        case submitPhone(PhoneNumber)
        /// ``AuthAPI/fetchTerms(phoneToken:call:completion:)``.
        case fetchTerms(phoneToken: PhoneToken)
        /// ``AuthAPI/acceptTerms(version:phoneToken:call:completion:)``.
        case acceptTerms(version: String, phoneToken: PhoneToken)
        /// ``AuthAPI/sendCode(phoneToken:call:completion:)``.
        case sendCode(phoneToken: PhoneToken)
        /// ``AuthAPI/verifyCode(_:phoneToken:call:completion:)``.
        case verifyCode(SMSCode, phoneToken: PhoneToken)
        /// ``AuthAPI/fetchSession(authToken:call:completion:)``.
        case fetchSession(authToken: AuthToken)
        /// ``AuthAPI/signOut(authToken:call:completion:)``.
        case signOut(authToken: AuthToken)

        /// The method called.
        public var method: UnimplementedAuthAPI.Method {
            switch self {
            case .submitPhone: .submitPhone
            case .fetchTerms: .fetchTerms
            case .acceptTerms: .acceptTerms
            case .sendCode: .sendCode
            case .verifyCode: .verifyCode
            case .fetchSession: .fetchSession
            case .signOut: .signOut
            }
        }
    }

    /// When answers are delivered.
    public enum Delivery: Sendable, Hashable {
        /// Before the method returns, on the caller's thread: the strictest test of re-entrancy.
        case immediate
        /// Later, on a Dispatch queue, as a network answer arrives.
        case asynchronous
    }

    private let submitPhoneAnswer: (@Sendable (PhoneNumber) -> Result<PhoneSession, AuthError>)?
    private let fetchTermsAnswer: (@Sendable (PhoneToken) -> Result<TermsOfUse, AuthError>)?
    private let acceptTermsAnswer: (@Sendable (String, PhoneToken) -> Result<TermsAcceptance, AuthError>)?
    private let sendCodeAnswer: (@Sendable (PhoneToken) -> Result<CodeDelivery, AuthError>)?
    private let verifyCodeAnswer: (@Sendable (SMSCode, PhoneToken) -> Result<AuthToken, AuthError>)?
    private let fetchSessionAnswer: (@Sendable (AuthToken) -> Result<SessionStatus, AuthError>)?
    private let signOutAnswer: (@Sendable (AuthToken) -> Result<Void, AuthError>)?
    private let unimplemented: @Sendable (UnimplementedAuthAPI.Method) -> Void
    private let delivery: Delivery
    private let recorded = LockedState<[(call: Call, key: IdempotencyKey?)]>([])

    /// Creates a stub.
    ///
    /// Each closure is called once per call of its method, with the call's arguments, and its
    /// result is the answer; a closure may count, check or cancel before answering. Leave out
    /// the methods the test must not touch.
    ///
    /// - Parameters:
    ///   - submitPhone: Answers ``AuthAPI/submitPhone(_:call:completion:)``.
    ///   - fetchTerms: Answers ``AuthAPI/fetchTerms(phoneToken:call:completion:)``.
    ///   - acceptTerms: Answers ``AuthAPI/acceptTerms(version:phoneToken:call:completion:)`` from the
    ///     version and the phone token.
    ///   - sendCode: Answers ``AuthAPI/sendCode(phoneToken:call:completion:)``.
    ///   - verifyCode: Answers ``AuthAPI/verifyCode(_:phoneToken:call:completion:)`` from the code and
    ///     the phone token.
    ///   - fetchSession: Answers ``AuthAPI/fetchSession(authToken:call:completion:)``.
    ///   - signOut: Answers ``AuthAPI/signOut(authToken:call:completion:)``.
    ///   - delivery: When answers are delivered; ``Delivery/immediate`` by default.
    ///   - unimplemented: Called with a method that was not set up, before it fails.
    public init(
        submitPhone: (@Sendable (PhoneNumber) -> Result<PhoneSession, AuthError>)? = nil,
        fetchTerms: (@Sendable (PhoneToken) -> Result<TermsOfUse, AuthError>)? = nil,
        acceptTerms: (@Sendable (String, PhoneToken) -> Result<TermsAcceptance, AuthError>)? = nil,
        sendCode: (@Sendable (PhoneToken) -> Result<CodeDelivery, AuthError>)? = nil,
        verifyCode: (@Sendable (SMSCode, PhoneToken) -> Result<AuthToken, AuthError>)? = nil,
        fetchSession: (@Sendable (AuthToken) -> Result<SessionStatus, AuthError>)? = nil,
        signOut: (@Sendable (AuthToken) -> Result<Void, AuthError>)? = nil,
        delivery: Delivery = .immediate,
        unimplemented: @escaping @Sendable (UnimplementedAuthAPI.Method) -> Void =
            UnimplementedAuthAPI.reportToStandardError
    ) {
        self.submitPhoneAnswer = submitPhone
        self.fetchTermsAnswer = fetchTerms
        self.acceptTermsAnswer = acceptTerms
        self.sendCodeAnswer = sendCode
        self.verifyCodeAnswer = verifyCode
        self.fetchSessionAnswer = fetchSession
        self.signOutAnswer = signOut
        self.delivery = delivery
        self.unimplemented = unimplemented
    }

    /// Every call received, set up or not, in order.
    public var calls: [Call] { recorded.withLock { $0.map(\.call) } }

    /// The idempotency key each call of `method` carried, in order: `nil` for a call without one.
    /// Lets a test prove that a step with side effects passes its launch's key on.
    ///
    /// - Parameter method: The method.
    /// - Returns: One entry per call of `method`.
    public func idempotencyKeys(for method: UnimplementedAuthAPI.Method) -> [IdempotencyKey?] {
        recorded.withLock { $0.filter { $0.call.method == method }.map(\.key) }
    }

    /// How many times `method` was called.
    ///
    /// - Parameter method: The method.
    /// - Returns: The count.
    public func callCount(_ method: UnimplementedAuthAPI.Method) -> Int {
        recorded.withLock { $0.count { $0.call.method == method } }
    }

    /// Answers from the `submitPhone` closure.
    public func submitPhone(
        _ phone: PhoneNumber, call: AuthCall, completion: @escaping @Sendable (Result<PhoneSession, AuthError>) -> Void
    ) {
        answer(.submitPhone(phone), call, completion) { submitPhoneAnswer?(phone) }
    }

    /// Answers from the `fetchTerms` closure.
    public func fetchTerms(
        phoneToken: PhoneToken, call: AuthCall, completion: @escaping @Sendable (Result<TermsOfUse, AuthError>) -> Void
    ) {
        answer(.fetchTerms(phoneToken: phoneToken), call, completion) { fetchTermsAnswer?(phoneToken) }
    }

    /// Answers from the `acceptTerms` closure.
    public func acceptTerms(
        version: String, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<TermsAcceptance, AuthError>) -> Void
    ) {
        answer(.acceptTerms(version: version, phoneToken: phoneToken), call, completion) {
            acceptTermsAnswer?(version, phoneToken)
        }
    }

    /// Answers from the `sendCode` closure.
    public func sendCode(
        phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<CodeDelivery, AuthError>) -> Void
    ) {
        answer(.sendCode(phoneToken: phoneToken), call, completion) { sendCodeAnswer?(phoneToken) }
    }

    /// Answers from the `verifyCode` closure.
    public func verifyCode(
        _ code: SMSCode, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<AuthToken, AuthError>) -> Void
    ) {
        answer(.verifyCode(code, phoneToken: phoneToken), call, completion) { verifyCodeAnswer?(code, phoneToken) }
    }

    /// Answers from the `fetchSession` closure.
    public func fetchSession(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<SessionStatus, AuthError>) -> Void
    ) {
        answer(.fetchSession(authToken: authToken), call, completion) { fetchSessionAnswer?(authToken) }
    }

    /// Answers from the `signOut` closure.
    public func signOut(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<Void, AuthError>) -> Void
    ) {
        answer(.signOut(authToken: authToken), call, completion) { signOutAnswer?(authToken) }
    }

    /// Records the call, then delivers what its closure answers, or fails as unimplemented when
    /// the test set none up (`answer` gives `nil`).
    private func answer<Value: Sendable>(
        _ received: Call, _ call: AuthCall, _ completion: @escaping @Sendable (Result<Value, AuthError>) -> Void,
        _ answer: () -> Result<Value, AuthError>?
    ) {
        recorded.withLock { $0.append((received, call.idempotencyKey)) }
        guard let result = answer() else {
            unimplemented(received.method)
            return completion(.failure(UnimplementedAuthAPI.error(for: received.method)))
        }
        switch delivery {
        case .immediate: completion(result)
        case .asynchronous: DispatchQueue.global().async { completion(result) }
        }
    }
}
