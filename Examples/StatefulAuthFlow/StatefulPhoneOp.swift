public import AuthFlow
public import Operations

/// Sends the phone number and writes the phone token into ``LocalStorage`` — the article's
/// stateful variant of ``PhoneOp``, kept for the diagram comparison.
///
/// It finishes with no value: the next step would have to read the token back from storage, so
/// the two steps share state, and a failed launch may leave a token behind that a relaunch
/// overwrites. That is why ``AuthScenario`` uses the pure ``PhoneOp`` instead, and why this type
/// is an ``Op`` with side effects rather than a ``PureOp``.
///
/// ```swift
/// let op = factory.makeStatefulPhoneOp()
/// try op.launchAndWait(OpContext(nil))
/// let token = try factory.storage.loadPhoneToken()
/// ```
public final class StatefulPhoneOp: Op {
    private let api: any AuthAPI
    private let storage: any LocalStorage
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makeStatefulPhoneOp()``.
    ///
    /// - Parameters:
    ///   - api: The backend.
    ///   - storage: Where the phone token is written.
    ///   - screens: Makes the phone screen.
    public init(api: any AuthAPI, storage: any LocalStorage, screens: any AuthScreens) {
        self.api = api
        self.storage = storage
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
        let storage = storage
        PhoneEntry(api: api, screens: screens).run(prefill: context.input, call: AuthCall(context), trace: trace) {
            answer in
            // Cancelled or timed out meanwhile: the caller was told nothing was written.
            guard !completion.isFinished else { return }
            completion.finish(
                answer.flatMap { _, session in PhoneTokenStorage.save(session.phoneToken, to: storage, trace: trace) })
        }
    }
}
