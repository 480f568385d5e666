package import Operations

/// The part the phone operations share (``PhoneOp``, ``AuthOp``, and `StatefulPhoneOp` in
/// Examples/StatefulAuthFlow, hence `package`): create the phone view model (handed
/// ``AuthAPI``), bind it to a screen through the router, submit the number the user confirms
/// through the view model, and dismiss the screen — recording each message when tracing is on.
/// What to do with the answer (return it, or store it) is the operation's own business.
///
/// The request's retries (by `retry` on the call's scheduler, each reported through `retried`),
/// a rejected number asked for again (`asksAgain`, in a `loop` frame, up to ``reasks`` times)
/// and the request without an idempotency key are as ``PhoneOp`` describes them.
package struct PhoneEntry {
    let api: any AuthAPI
    let screens: any AuthScreens
    let retry: RetryPolicy
    let asksAgain: Bool
    /// How many rejected numbers are asked for again before the rejection ends the launch: a
    /// person corrects a typo in one or two; a screen that keeps sending the same number would
    /// otherwise loop for ever.
    static let reasks = 5
    /// Places the backoff's jitter (the launch environment's ``OpEnvironment/random``).
    let random: @Sendable () -> Double
    /// Told of each retry of the request before it goes out again: the attempt that failed,
    /// its error, how long it took and the wait before the next.
    let retried: @Sendable (_ attempt: Int, _ error: AuthError, _ took: Duration, _ delay: Duration) -> Void

    /// An entry; by default it sends the number once and gives a rejection to the caller.
    package init(
        api: any AuthAPI, screens: any AuthScreens, retry: RetryPolicy = .never, asksAgain: Bool = false,
        random: @escaping @Sendable () -> Double = { 0.5 },
        retried: @escaping @Sendable (_ attempt: Int, _ error: AuthError, _ took: Duration, _ delay: Duration) -> Void =
            { _, _, _, _ in }
    ) {
        self.api = api
        self.screens = screens
        self.retry = retry
        self.asksAgain = asksAgain
        self.random = random
        self.retried = retried
    }

    /// Runs the entry and calls `answered` once with the submitted phone and the backend's answer.
    ///
    /// - Parameters:
    ///   - call: The launch's call options: its cancellation closes the screen (so it does not
    ///     outlive the launch) and abandons the request.
    ///   - answered: Called once; the screen is already closed.
    package func run(
        prefill: PhoneNumber?, call: AuthCall, trace: TraceScope?,
        answered: @escaping @Sendable (Result<(PhoneNumber, PhoneSession), any Error>) -> Void
    ) {
        trace?.declare(.authAPI)
        let screen = screens.makePhoneScreen()
        let model = Self.created(PhoneViewModel(api: api, input: prefill?.e164 ?? ""), trace)
        let shown = ScreenLifetime(
            dismiss: screen.dismiss, cancellation: call.cancellation, viewModel: .phoneViewModel, trace: trace)
        ask(model, on: screen, framed: false, reasksLeft: Self.reasks, call: call.withoutKey, trace: trace) {
            result in
            shown.close()
            answered(result)
        }
    }

    /// Records the creation of a view model, handed ``AuthAPI`` (its hard link), by the
    /// operation; ``ask(_:on:framed:reasksLeft:call:trace:answered:)`` binds it to the router.
    private static func created(_ model: PhoneViewModel, _ trace: TraceScope?) -> PhoneViewModel {
        trace?.create(.phoneViewModel, "create(AuthAPI)")
        return model
    }

    /// Shows `model` and submits what the person enters; a rejected number is shown again with
    /// the reason, each time in a frame of its own (`framed`: this show is in one), while
    /// `asksAgain` and the call is not cancelled.
    private func ask(
        _ model: PhoneViewModel, on screen: any PhoneScreen, framed: Bool, reasksLeft: Int, call: AuthCall,
        trace: TraceScope?, answered: @escaping @Sendable (Result<(PhoneNumber, PhoneSession), any Error>) -> Void
    ) {
        let prompt = ScreenPrompt<PhoneScreenEvent>(
            cancellation: call.cancellation, operation: "PhoneOp", deliverOn: screens.promptDelivery
        ) { answer in
            switch answer {
            case .failure(let error):
                // Nobody could answer (`PromptUnanswerable`), or the screen failed: the launch
                // ends with that, a cancellation that undoes nothing in the first case.
                trace?.callback(from: .router, "unanswered")
                if framed { trace?.closeFrame() }
                answered(.failure(error))
            case .success(.cancelled):
                trace?.callback(from: .router, "cancelled")
                if framed { trace?.closeFrame() }
                answered(.failure(SignInCancelled.phoneScreenClosed))
            case .success(.submitted(let phone)):
                trace?.callback(from: .router, "submitted(\(phone.traceLabel))")
                Self.submit(
                    phone, attempt: 1, model: model, retry: retry, random: random, retried: retried, call: call,
                    trace: trace
                ) {
                    result in
                    if framed { trace?.closeFrame() }
                    guard asksAgain, reasksLeft > 0, case .failure(.invalidPhone) = result,
                        call.cancellation?.isCancelled != true
                    else { return answered(result.map { (phone, $0) }.mapError { $0 }) }
                    trace?.openFrame(.loop, "number rejected, asked again")
                    // A change is a new model: the rejected one goes, one with the reason comes.
                    trace?.release(.phoneViewModel)
                    ask(
                        Self.created(model.failed(with: .invalidPhone, phone: phone), trace), on: screen, framed: true,
                        reasksLeft: reasksLeft - 1, call: call, trace: trace, answered: answered)
                }
            }
        }
        trace?.message(to: .router, "bind(PhoneViewModel)")
        screen.show(model, prompt)
    }

    /// Sends the number through the view model (which sends it to the ``AuthAPI`` it was
    /// handed); after a transient failure, waits the policy's delay on the call's scheduler (its
    /// backoff, or the server's `Retry-After` up to the policy's limit) and sends it again, until
    /// the policy's attempts are spent or the call is cancelled. `done` gets the last answer.
    private static func submit(
        _ phone: PhoneNumber, attempt: Int, model: PhoneViewModel, retry: RetryPolicy,
        random: @escaping @Sendable () -> Double,
        retried: @escaping @Sendable (_ attempt: Int, _ error: AuthError, _ took: Duration, _ delay: Duration) -> Void,
        call: AuthCall, trace: TraceScope?, done: @escaping @Sendable (Result<PhoneSession, AuthError>) -> Void
    ) {
        let viewModel = trace?.scope(for: .phoneViewModel)
        trace?.message(to: .phoneViewModel, "submit(\(phone.traceLabel))")
        viewModel?.message(to: .authAPI, "submitPhone(\(phone.traceLabel))")
        let sent = call.scheduler.now
        model.submit(phone, call: call.request("submit")) { result in
            viewModel?.reply(from: .authAPI, result.replyLabel { $0.phoneToken.redacted })
            trace?.reply(from: .phoneViewModel, result.replyLabel { $0.phoneToken.redacted })
            // A retried attempt is drawn in a loop frame, as the engine draws its own retries.
            if attempt > 1 { trace?.closeFrame() }
            guard case .failure(let error) = result, attempt < retry.maxAttempts, retry.isTransient(error),
                call.cancellation?.isCancelled != true
            else { return done(result) }
            let delay = retry.delay(beforeRetry: attempt, after: error, random: random())
            let frame = "retry \(attempt + 1) of \(retry.maxAttempts): \(error.traceLabel)"
            retried(attempt, error, sent.duration(to: call.scheduler.now), delay)
            let again: @Sendable () -> Void = {
                guard call.cancellation?.isCancelled != true else { return done(.failure(.cancelled)) }
                trace?.openFrame(.loop, frame)
                submit(
                    phone, attempt: attempt + 1, model: model, retry: retry, random: random, retried: retried,
                    call: call, trace: trace, done: done)
            }
            // No wait means no timer, as the engine's own retries do.
            if delay <= .zero { return again() }
            _ = call.scheduler.schedule(after: delay, again)
        }
    }
}
