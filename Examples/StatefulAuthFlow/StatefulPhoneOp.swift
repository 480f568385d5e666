public import AuthFlow
public import Operations

/// Sends the phone number and writes the phone token into a ``PhoneTokenStore`` — the article's
/// stateful variant of ``PhoneOp``, kept for the diagram comparison.
///
/// It finishes with no value: the next step would have to read the token back from storage, so
/// the two steps share state, and a failed launch may leave a token behind that a relaunch
/// overwrites. That is why ``AuthScenario`` uses the pure ``PhoneOp`` instead, and why this type
/// is an ``Op`` with side effects rather than a ``PureOp``.
///
/// ```swift
/// let phoneTokens = InMemoryPhoneTokenStore()
/// try factory.makeStatefulPhoneOp(phoneTokens: phoneTokens).launchAndWait(OpContext(nil))
/// let token = try phoneTokens.loadPhoneToken()
/// ```
public final class StatefulPhoneOp: Op {
    private let api: any AuthAPI
    private let phoneTokens: any PhoneTokenStore
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makeStatefulPhoneOp(phoneTokens:)``.
    ///
    /// - Parameters:
    ///   - api: The backend.
    ///   - phoneTokens: Where the phone token is written.
    ///   - screens: Makes the phone screen.
    public init(api: any AuthAPI, phoneTokens: any PhoneTokenStore, screens: any AuthScreens) {
        self.api = api
        self.phoneTokens = phoneTokens
        self.screens = screens
    }

    /// Shows the phone screen prefilled with the context's number (or empty), submits the number
    /// and saves the phone token the backend answers.
    ///
    /// - Parameters:
    ///   - context: The number to prefill, or `nil`.
    ///   - onFinish: Success once the token is saved; the ``AuthError``, ``LocalStorageError`` or
    ///     ``SignInCancelled/phoneScreenClosed`` otherwise.
    public func launch(_ context: OpContext<PhoneNumber?>, onFinish: @escaping OnFinish<Void>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let trace = completion.trace
        let phoneTokens = phoneTokens
        PhoneEntry(api: api, screens: screens).run(prefill: context.input, call: AuthCall(context), trace: trace) {
            answer in
            // Cancelled or timed out meanwhile: the caller was told nothing was written.
            guard !completion.isFinished else { return }
            completion.finish(
                answer.flatMap { _, session in phoneTokens.save(session.phoneToken, trace: trace) })
        }
    }
}
