public import AuthFlow
import Foundation

/// What a ``StubAuthAPI`` does with a method the test did not set up: it reports the call
/// through its `unimplemented` closure and completes at once, on the caller's thread, with
/// ``error(for:)`` — a permanent ``AuthError`` naming the method — so an operation that touches
/// a method the test did not expect fails loudly instead of hanging or succeeding by accident.
/// A stub with nothing set up is the starting point of a test that must say which backend calls
/// it expects.
///
/// ```swift
/// let api = StubAuthAPI(unimplemented: { method in Issue.record("unexpected call of \(method)") })
/// let report = LaunchProbe.launch(TermsOfUseOp(api: api, screens: screens), input: token)
/// ```
public enum UnimplementedAuthAPI {
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
}
