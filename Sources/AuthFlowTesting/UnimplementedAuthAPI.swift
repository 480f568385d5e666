public import AuthFlow
import Foundation

/// An ``AuthAPI`` whose every method fails: the starting point of a test that must say which
/// backend calls it expects.
///
/// Each call reports itself through ``init(report:)``'s closure and completes at once, on the
/// caller's thread, with ``error(for:)`` — a permanent ``AuthError`` naming the method — so an
/// operation that touches a method the test did not set up fails loudly instead of hanging or
/// succeeding by accident. ``StubAuthAPI`` answers the methods a test sets up and falls back to
/// this type for the rest.
///
/// ```swift
/// let api = UnimplementedAuthAPI { method in Issue.record("unexpected call of \(method)") }
/// let report = LaunchProbe.launch(TermsOfUseOp(api: api, screens: screens), input: token)
/// ```
public struct UnimplementedAuthAPI: AuthAPI {
    /// The methods of ``AuthAPI``, as an unimplemented call names them.
    public enum Method: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// ``AuthAPI/submitPhone(_:call:completion:)``.
        case submitPhone
        /// ``AuthAPI/fetchTerms(phoneToken:call:completion:)``.
        case fetchTerms
        /// ``AuthAPI/acceptTerms(version:phoneToken:call:completion:)``.
        case acceptTerms
        /// ``AuthAPI/sendCode(phoneToken:call:completion:)``.
        case sendCode
        /// ``AuthAPI/verifyCode(_:phoneToken:call:completion:)``.
        case verifyCode
        /// ``AuthAPI/fetchSession(authToken:call:completion:)``.
        case fetchSession
        /// ``AuthAPI/signOut(authToken:call:completion:)``.
        case signOut

        /// The method's full name: `AuthAPI.submitPhone(_:call:completion:)`.
        public var description: String {
            switch self {
            case .submitPhone: "AuthAPI.submitPhone(_:call:completion:)"
            case .fetchTerms: "AuthAPI.fetchTerms(phoneToken:call:completion:)"
            case .acceptTerms: "AuthAPI.acceptTerms(version:phoneToken:call:completion:)"
            case .sendCode: "AuthAPI.sendCode(phoneToken:call:completion:)"
            case .verifyCode: "AuthAPI.verifyCode(_:phoneToken:call:completion:)"
            case .fetchSession: "AuthAPI.fetchSession(authToken:call:completion:)"
            case .signOut: "AuthAPI.signOut(authToken:call:completion:)"
            }
        }
    }

    private let report: @Sendable (Method) -> Void

    /// Creates an API that fails every call.
    ///
    /// - Parameter report: Called with the method before the call fails, on the caller's thread.
    ///   A Swift Testing suite passes `{ Issue.record("unexpected call of \($0)") }`; the default
    ///   writes one line to standard error.
    public init(report: @escaping @Sendable (Method) -> Void = UnimplementedAuthAPI.reportToStandardError) {
        self.report = report
    }

    /// The default report: `UnimplementedAuthAPI: AuthAPI.sendCode(phoneToken:call:completion:) was
    /// called but not set up` on standard error.
    public static let reportToStandardError: @Sendable (Method) -> Void = { method in
        FileHandle.standardError.write(Data("UnimplementedAuthAPI: \(method) was called but not set up\n".utf8))
    }

    /// The error every call of `method` completes with: `501 Not Implemented` as an
    /// ``AuthError/unexpectedStatus(_:code:)`` whose code names the method. It is permanent, so
    /// no retry policy sends the call again.
    ///
    /// - Parameter method: The method that was called.
    /// - Returns: The error.
    public static func error(for method: Method) -> AuthError {
        .unexpectedStatus(501, code: "unimplemented \(method)")
    }

    /// Reports and fails.
    public func submitPhone(
        _ phone: PhoneNumber, call: AuthCall, completion: @escaping @Sendable (Result<PhoneSession, AuthError>) -> Void
    ) {
        fail(.submitPhone, completion)
    }

    /// Reports and fails.
    public func fetchTerms(
        phoneToken: PhoneToken, call: AuthCall, completion: @escaping @Sendable (Result<TermsOfUse, AuthError>) -> Void
    ) {
        fail(.fetchTerms, completion)
    }

    /// Reports and fails.
    public func acceptTerms(
        version: String, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<TermsAcceptance, AuthError>) -> Void
    ) {
        fail(.acceptTerms, completion)
    }

    /// Reports and fails.
    public func sendCode(
        phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<CodeDelivery, AuthError>) -> Void
    ) {
        fail(.sendCode, completion)
    }

    /// Reports and fails.
    public func verifyCode(
        _ code: SMSCode, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<AuthToken, AuthError>) -> Void
    ) {
        fail(.verifyCode, completion)
    }

    /// Reports and fails.
    public func fetchSession(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<SessionStatus, AuthError>) -> Void
    ) {
        fail(.fetchSession, completion)
    }

    /// Reports and fails.
    public func signOut(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<Void, AuthError>) -> Void
    ) {
        fail(.signOut, completion)
    }

    func fail<Value>(_ method: Method, _ completion: @Sendable (Result<Value, AuthError>) -> Void) {
        report(method)
        completion(.failure(Self.error(for: method)))
    }
}
