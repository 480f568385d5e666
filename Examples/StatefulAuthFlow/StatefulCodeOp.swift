public import AuthFlow
public import Operations

/// Requests and verifies the SMS code for the phone token saved in a ``PhoneTokenStore``, and saves
/// the auth token — the article's stateful variant of ``CodeOp``, kept for the comparison.
///
/// Launched with the phone number only because the code screen shows it; the token it acts on
/// comes from storage, whoever left it there. After a failed attempt (a rejected number typed
/// next, say) that token may be an earlier attempt's, and the SMS goes to that number: the flow
/// must clear the storage first. The pure ``CodeOp`` is launched with its token, so it cannot
/// meet one it was not given.
public final class StatefulCodeOp: Op {
    private let api: any AuthAPI
    private let phoneTokens: any PhoneTokenStore
    private let storage: any LocalStorage
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makeStatefulCodeOp(phoneTokens:)``.
    public init(
        api: any AuthAPI, phoneTokens: any PhoneTokenStore, storage: any LocalStorage, screens: any AuthScreens
    ) {
        self.api = api
        self.phoneTokens = phoneTokens
        self.storage = storage
        self.screens = screens
    }

    /// Loads the phone token, asks for and verifies the code, and saves the auth token.
    ///
    /// - Parameters:
    ///   - context: The phone number the code screen shows.
    ///   - onFinish: Success once the auth token is saved; ``MissingPhoneToken``, the code's
    ///     failure or a ``LocalStorageError`` otherwise.
    public func launch(_ context: OpContext<PhoneNumber>, onFinish: @escaping OnFinish<Void>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let trace = completion.trace
        let storage = storage
        let token: PhoneToken
        switch phoneTokens.load(trace: trace) {
        case .success(let loaded): token = loaded
        case .failure(let error): return completion.fail(error)
        }
        let attempt = SignInAttempt(phone: context.input, phoneToken: token, termsRequired: false, codeLength: 6)
        CodeEntry(api: api, screens: screens).run(CodeRequest(attempt: attempt), call: AuthCall(context), trace: trace)
        { verified in
            // Timed out meanwhile: the caller was told nothing was saved; keep it so.
            guard !completion.isFinished else { return }
            completion.finish(
                verified.flatMap { authToken in
                    trace?.message(to: .localStorage, "saveAuthToken(\(authToken.redacted))")
                    let saved = Result { () throws(LocalStorageError) in try storage.saveAuthToken(authToken) }
                    trace?.reply(from: .localStorage, saved.replyLabel { "saved" })
                    return saved.mapError { $0 }
                })
        }
    }
}
