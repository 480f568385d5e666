public import Operations

/// Sends the phone number and returns the sign-in attempt through `onFinish` — the pure variant:
/// nothing is written anywhere, so a failed launch can simply be launched again.
///
/// Launched with a phone number to prefill (or `nil`), it creates the phone screen and its view
/// model, lets the user confirm or type the number, and submits it to ``AuthAPI``.
///
/// Pure although it is a `POST`: `POST /v1/auth/phone` only opens a sign-in attempt and hands
/// out a phone token. It sends no SMS and spends no attempt, so a repeat after a lost answer
/// opens a second attempt that the flow uses while the first expires unused — nothing the person
/// or the backend notices. It therefore carries no idempotency key and is retried freely.
///
/// It retries that request itself after a transient failure, by its `retry` policy on the
/// launch's scheduler, after the number was entered: the person types the number once however
/// often the request is sent. A scenario should not retry this step again on top. Each retry is
/// reported to the run (``OpContext/reportRetry(of:after:took:retryingIn:purity:)``), so its
/// journal, progress and `show` count the attempts its diagram draws.
///
/// A number the backend rejects is the person's to correct: with `asksAgain`, the screen shows
/// it again with the server's reason and the launch goes on with the number entered next.
public final class PhoneOp: PureOp {
    private let api: any AuthAPI
    private let screens: any AuthScreens
    private let retry: RetryPolicy
    private let asksAgain: Bool

    /// Creates the operation; use ``AuthFlowFactory/makePhoneOp()``.
    ///
    /// - Parameters:
    ///   - api: The backend.
    ///   - screens: Makes the phone screen.
    ///   - retry: How the request (not the screen) is retried after a transient failure.
    ///   - asksAgain: Whether a rejected number is asked for again on the same screen; without
    ///     it the launch fails with ``AuthError/invalidPhone`` (a script cannot correct it).
    public init(api: any AuthAPI, screens: any AuthScreens, retry: RetryPolicy = .never, asksAgain: Bool = false) {
        self.api = api
        self.screens = screens
        self.retry = retry
        self.asksAgain = asksAgain
    }

    /// Launches the operation: shows the phone screen, submits the number, finishes with the
    /// attempt. Records its messages when tracing is on.
    public func launch(_ context: OpContext<PhoneNumber?>, onFinish: @escaping OnFinish<SignInAttempt>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let entry = PhoneEntry(
            api: api, screens: screens, retry: retry, asksAgain: asksAgain, random: context.environment.random,
            retried: { attempt, error, took, delay in
                context.reportRetry(
                    of: attempt, after: error, took: took, retryingIn: delay, purity: Purity.of(PhoneOp.self))
            })
        entry.run(prefill: context.input, call: AuthCall(context), trace: completion.trace) { answer in
            completion.finish(
                answer.map { phone, session in
                    SignInAttempt(
                        phone: phone, phoneToken: session.phoneToken, termsRequired: session.termsRequired,
                        codeLength: session.codeLength)
                })
        }
    }
}
