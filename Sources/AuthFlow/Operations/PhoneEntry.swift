import Operations

/// The part both phone operations share: show the phone screen, submit the number the user
/// confirms, and close the screen — recording each message when tracing is on. What to do with
/// the answer (return it, or store it) is the operation's own business.
struct PhoneEntry {
    let api: any AuthAPI
    let screens: any AuthScreens

    /// Runs the entry and calls `answered` once with the submitted phone and the backend's answer.
    ///
    /// - Parameters:
    ///   - prefill: The number to show, if known.
    ///   - trace: The operation's trace scope.
    ///   - call: The launch's call options: its cancellation closes the screen (so it does not
    ///     outlive the launch) and abandons the request.
    ///   - answered: Called once; the screen is already closed.
    func run(
        prefill: PhoneNumber?, call: AuthCall, trace: TraceScope?,
        answered: @escaping @Sendable (Result<(PhoneNumber, PhoneSession), any Error>) -> Void
    ) {
        trace?.declare(.authAPI)
        trace?.declare(.localStorage)
        let api = api
        let screen = screens.makePhoneScreen()
        trace?.create(.phoneScreen)
        trace?.message(to: .phoneScreen, "show(PhoneViewModel)")
        let shown = ScreenLifetime(dismiss: screen.dismiss, cancellation: call.cancellation)
        screen.show(PhoneViewModel(input: prefill?.e164 ?? "")) { event in
            switch event {
            case .cancelled:
                trace?.callback(from: .phoneScreen, "cancelled")
                Self.close(shown, trace)
                answered(.failure(SignInCancelled.phoneScreenClosed))
            case .submitted(let phone):
                trace?.callback(from: .phoneScreen, "submitted(\(phone.traceLabel))")
                trace?.message(to: .authAPI, "submitPhone(\(phone.traceLabel))")
                api.submitPhone(phone, call: call) { result in
                    trace?.reply(from: .authAPI, result.replyLabel { $0.phoneToken.redacted })
                    Self.close(shown, trace)
                    answered(result.map { (phone, $0) }.mapError { $0 })
                }
            }
        }
    }

    private static func close(_ screen: ScreenLifetime, _ trace: TraceScope?) {
        trace?.message(to: .phoneScreen, "dismiss()")
        screen.close()
        trace?.release(.phoneScreen)
    }
}
