public import Operations

/// Ends the saved sign-in: revokes the saved access token on the backend, then deletes it from
/// ``LocalStorage``. Launched with nothing; it reads the token itself, as ``CheckSessionOp`` does.
///
/// The local token is deleted only after the backend confirmed the revocation. A failure before
/// that (unreachable, timeout, 5xx) leaves the saved token as it was, still valid on the
/// backend, so what the app shows ("signed in") stays true and launching the operation again
/// finishes the job. Deleting first would leave a session that works on the backend and that
/// nobody can revoke any more.
///
/// Idempotent (``IdempotentOp``): revoking a token the backend already revoked, or no longer
/// knows, succeeds (`Docs/HTTP-API.md`), and ``AuthError/unauthorized`` counts as confirmation
/// too, since such a token signs nobody in. Its effect lives outside the journal, so a resumed
/// run launches it again rather than replaying "signed out".
public final class SignOutOp: IdempotentOp {
    private let api: any AuthAPI
    private let storage: any LocalStorage

    /// Creates the operation; use ``AuthFlowFactory/makeSignOutOp()``.
    public init(api: any AuthAPI, storage: any LocalStorage) {
        self.api = api
        self.storage = storage
    }

    /// Launches the operation: loads the token, revokes it, deletes it, and finishes exactly once
    /// with what it did. Records its messages when tracing is on.
    public func launch(_ context: OpContext<Void>, onFinish: @escaping OnFinish<SignOutOutcome>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        // Already finished as cancelled or timed out: nothing was sent, nothing deleted.
        guard !completion.isFinished else { return }
        let trace = completion.trace
        trace?.declare(.localStorage)
        trace?.declare(.authAPI)
        trace?.message(to: .localStorage, "loadAuthToken()")
        let saved: AuthToken?
        do {
            saved = try storage.loadAuthToken()
        } catch {
            trace?.reply(from: .localStorage, "error: \(error)")
            return completion.fail(error)
        }
        trace?.reply(from: .localStorage, saved?.redacted ?? "nil")
        guard let saved else { return completion.succeed(.notSignedIn) }
        let storage = storage
        trace?.message(to: .authAPI, "signOut(\(saved.redacted))")
        api.signOut(authToken: saved, call: AuthCall(context).request("sign-out")) { revoked in
            trace?.reply(from: .authAPI, revoked.replyLabel { "revoked" })
            switch revoked {
            case .success, .failure(.unauthorized):
                trace?.message(to: .localStorage, "clearAuthToken()")
                do {
                    try storage.clearAuthToken()
                    trace?.reply(from: .localStorage, "cleared")
                    completion.succeed(.signedOut)
                } catch {
                    trace?.reply(from: .localStorage, "error: \(error)")
                    completion.fail(error)
                }
            case .failure(let error):
                completion.fail(error)
            }
        }
    }
}
