public import AuthFlow
public import Operations

/// Shows and accepts the terms for the phone token saved in a ``PhoneTokenStore``, and saves the token
/// the acceptance returns — the article's stateful variant of ``TermsOfUseOp``, kept for the
/// comparison.
///
/// It is the pure operation with a read before and a write after: the token comes from storage
/// instead of the launch, and goes back there instead of through `onFinish`. So two steps share
/// state, and a failure leaves it as it was: a flow built on these variants must clear the
/// storage (``PhoneTokenStore/clearPhoneToken()``) before launching again, or the next step acts on
/// a token this attempt did not make.
public final class StatefulTermsOfUseOp: Op {
    private let api: any AuthAPI
    private let phoneTokens: any PhoneTokenStore
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makeStatefulTermsOfUseOp(phoneTokens:)``.
    public init(api: any AuthAPI, phoneTokens: any PhoneTokenStore, screens: any AuthScreens) {
        self.api = api
        self.phoneTokens = phoneTokens
        self.screens = screens
    }

    /// Loads the phone token, runs ``TermsOfUseOp`` with it, and saves the accepted token.
    ///
    /// - Parameters:
    ///   - context: No input: everything comes from storage.
    ///   - onFinish: Success once the new token is saved; ``MissingPhoneToken``, the terms
    ///     operation's failure or a ``LocalStorageError`` otherwise.
    public func launch(_ context: OpContext<Void>, onFinish: @escaping OnFinish<Void>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let trace = completion.trace
        let phoneTokens = phoneTokens
        let token: PhoneToken
        switch phoneTokens.load(trace: trace) {
        case .success(let loaded): token = loaded
        case .failure(let error): return completion.fail(error)
        }
        TermsOfUseOp(api: api, screens: screens).launch(completion.nested(context.with(input: token))) { accepted in
            // Timed out meanwhile: the caller was told nothing was saved; keep it so.
            guard !completion.isFinished else { return }
            completion.finish(
                accepted.flatMap { phoneTokens.save($0.phoneToken, trace: trace) })
        }
    }
}
