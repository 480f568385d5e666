public import Operations

/// Phone sign-in as one operation: the phone screen and the code screen in an unbroken chain —
/// the article's "before", kept to show why it was split.
///
/// An operation is indivisible, and that is its limit here: the terms of use must be accepted
/// after the number and before the code is requested, and shown again whenever they change.
/// Nothing can be put in the middle of an operation, and no part of it can be reused alone, so
/// against a backend that requires the terms this operation fails at `code/send`
/// (``AuthError/termsOutdated(currentVersion:)``). ``AuthScenario`` chains ``PhoneOp`` and
/// ``VerificationScenario`` (``TermsOfUseOp``, then ``CodeOp``) instead, and ``AppScenario``
/// reuses TermsOfUseOp alone.
///
/// It has side effects (the SMS, the verification), keyed like CodeOp's.
public final class AuthOp: Op {
    private let api: any AuthAPI
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makeAuthOp()``.
    public init(api: any AuthAPI, screens: any AuthScreens) {
        self.api = api
        self.screens = screens
    }

    /// Shows the phone screen, then the code screen, and finishes with the auth token.
    ///
    /// - Parameters:
    ///   - context: The number to prefill, or `nil`.
    ///   - onFinish: The token, or the first failure of either part.
    public func launch(_ context: OpContext<PhoneNumber?>, onFinish: @escaping OnFinish<AuthToken>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let trace = completion.trace
        let call = AuthCall(context)
        let codes = CodeEntry(api: api, screens: screens)
        // The phone request opens the attempt; only the code's first send carries the key.
        PhoneEntry(api: api, screens: screens).run(prefill: context.input, call: call.withoutKey, trace: trace) {
            answer in
            switch answer {
            case .failure(let error):
                completion.fail(error)
            case .success(let (phone, session)):
                // Timed out meanwhile: the caller was told; send no SMS for a finished launch.
                guard !completion.isFinished else { return }
                let attempt = SignInAttempt(
                    phone: phone, phoneToken: session.phoneToken, termsRequired: session.termsRequired,
                    codeLength: session.codeLength)
                codes.run(CodeRequest(attempt: attempt), call: call, trace: trace) { completion.finish($0) }
            }
        }
    }
}
