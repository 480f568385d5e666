public import Foundation
public import Operations

/// Reads the saved sign-in and asks the backend where it stands: signed out, signed in, or
/// signed in with terms that changed. It only reads, so it is pure.
public final class CheckSessionOp: PureOp {
    private let api: any AuthAPI
    private let storage: any LocalStorage
    private let now: @Sendable () -> Date

    /// Creates the operation; use ``AuthFlowFactory/makeCheckSessionOp()``.
    public init(api: any AuthAPI, storage: any LocalStorage, now: @escaping @Sendable () -> Date = { Date() }) {
        self.api = api
        self.storage = storage
        self.now = now
    }

    /// Launches the operation: loads the token, fetches the session, finishes with the check.
    public func launch(_ context: OpContext<PhoneNumber?>, onFinish: @escaping OnFinish<SessionCheck>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let trace = completion.trace
        let phone = context.input
        trace?.declare(.localStorage)
        trace?.declare(.authAPI)
        trace?.message(to: .localStorage, "loadAuthToken()")
        // A damaged token file is no reason to stop: signing in again replaces it.
        let saved = (try? storage.loadAuthToken()) ?? nil
        trace?.reply(from: .localStorage, saved?.redacted ?? "nil")
        guard let saved, !saved.isExpired(at: now()) else {
            return completion.succeed(SessionCheck(phone: phone, saved: nil, standing: .signedOut))
        }
        trace?.message(to: .authAPI, "fetchSession(\(saved.redacted))")
        api.fetchSession(authToken: saved, call: AuthCall(context)) { status in
            trace?.reply(from: .authAPI, status.replyLabel { "terms v\($0.termsVersion)" })
            switch status {
            case .failure(.unauthorized):
                completion.succeed(SessionCheck(phone: phone, saved: nil, standing: .signedOut))
            case .failure(let error):
                completion.fail(error)
            case .success(let status):
                let standing: SessionCheck.Standing =
                    if status.termsAcceptanceRequired, let phoneToken = status.phoneToken {
                        .termsChanged(phoneToken: phoneToken, version: status.termsVersion)
                    } else {
                        .signedIn
                    }
                completion.succeed(SessionCheck(phone: phone, saved: saved, standing: standing))
            }
        }
    }
}
