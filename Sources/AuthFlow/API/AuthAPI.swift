/// The sign-in backend, one method per step: the key service of the sign-in operations.
///
/// Callback-based because the operations that use it are. ``HTTPAuthAPI`` implements it over HTTP
/// against a real server or the `SimulatedBackend` (AuthSimulator).
///
/// ## Contract
/// - Every call completes exactly once, on any thread, with a value or an ``AuthError``.
/// - No call changes anything on the client; state lives on the backend and in the tokens, so an
///   operation that failed can be launched again without clean-up.
/// - Calls are independent: the caller passes the token each step needs.
/// - Every call takes an ``AuthCall``: cancelling its token abandons the request (and closes its
///   connection) with ``AuthError/cancelled``; its scheduler times the request out; a call that
///   makes the backend act (`acceptTerms`, `sendCode`, `verifyCode`, `submitPhone`, `signOut`)
///   sends its idempotency key, so a repeat with the same key gets the first answer and acts only
///   once.
/// - Outside an operation, `call: AuthCall()` asks with no cancellation, Dispatch's clock and no
///   key (``AuthCall/init(cancellation:scheduler:idempotencyKey:)``).
public protocol AuthAPI: Sendable {
    /// Starts a sign-in attempt for a phone number.
    ///
    /// - Parameters:
    ///   - phone: The phone number.
    ///   - completion: The attempt's phone token, whether terms are required and the code length.
    func submitPhone(
        _ phone: PhoneNumber, call: AuthCall, completion: @escaping @Sendable (Result<PhoneSession, AuthError>) -> Void)

    /// Fetches the terms of use this person must accept.
    ///
    /// - Parameters:
    ///   - phoneToken: The attempt's phone token.
    ///   - completion: The current terms.
    func fetchTerms(
        phoneToken: PhoneToken, call: AuthCall, completion: @escaping @Sendable (Result<TermsOfUse, AuthError>) -> Void)

    /// Accepts a version of the terms of use.
    ///
    /// - Parameters:
    ///   - version: The version the person saw and accepted.
    ///   - phoneToken: The attempt's phone token.
    ///   - completion: A receipt with the phone token to use from now on (and, for re-acceptance
    ///     after ``fetchSession(authToken:call:completion:)``, a refreshed access token);
    ///     ``AuthError/termsOutdated(currentVersion:)`` when `version` is no longer current.
    func acceptTerms(
        version: String, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<TermsAcceptance, AuthError>) -> Void)

    /// Asks the backend to send the SMS code (again).
    ///
    /// - Parameters:
    ///   - phoneToken: The attempt's phone token (after acceptance, the one the receipt returned).
    ///   - completion: When a resend is allowed and the code length;
    ///     ``AuthError/rateLimited(retryAfter:)`` when asked again too soon.
    func sendCode(
        phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<CodeDelivery, AuthError>) -> Void)

    /// Exchanges the SMS code for an access token.
    ///
    /// - Parameters:
    ///   - code: The code the person entered.
    ///   - phoneToken: The attempt's phone token.
    ///   - completion: The access token; ``AuthError/invalidCode(attemptsLeft:)``,
    ///     ``AuthError/codeExpired`` or ``AuthError/locked(retryAfter:)`` otherwise.
    func verifyCode(
        _ code: SMSCode, phoneToken: PhoneToken, call: AuthCall,
        completion: @escaping @Sendable (Result<AuthToken, AuthError>) -> Void)

    /// Checks a saved access token: whose it is and whether the terms changed since acceptance.
    ///
    /// - Parameters:
    ///   - authToken: The saved access token.
    ///   - completion: The session's status; ``AuthError/unauthorized`` when the token is no
    ///     longer accepted.
    func fetchSession(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<SessionStatus, AuthError>) -> Void
    )

    /// Revokes an access token, so signing out on this device also ends the session on the
    /// backend instead of leaving a token that still works for whoever copied it.
    ///
    /// Idempotent on the backend: a token already revoked, expired or unknown is revoked as far as
    /// anyone can tell, and the call succeeds.
    ///
    /// - Parameters:
    ///   - authToken: The saved access token.
    ///   - completion: Success once the backend no longer accepts the token.
    func signOut(
        authToken: AuthToken, call: AuthCall, completion: @escaping @Sendable (Result<Void, AuthError>) -> Void)
}
