public import Operations

/// Sends the phone number and returns the sign-in attempt through `onFinish` — the pure variant:
/// nothing is written anywhere, so a failed launch can simply be launched again.
///
/// Launched with a phone number to prefill (or `nil`), it creates the phone screen and its view
/// model, lets the user confirm or type the number, and submits it to ``AuthAPI``.
public final class PhoneOp: PureOp {
    private let api: any AuthAPI
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makePhoneOp()``.
    public init(api: any AuthAPI, screens: any AuthScreens) {
        self.api = api
        self.screens = screens
    }

    /// Launches the operation: records its messages when tracing is on and finishes exactly once.
    public func launch(_ context: OpContext<PhoneNumber?>, onFinish: @escaping OnFinish<SignInAttempt>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let trace = completion.trace
        trace?.declare(.authAPI)
        trace?.declare(.localStorage)
        let api = api
        let screen = screens.makePhoneScreen()
        trace?.create(.phoneScreen)
        let model = PhoneViewModel(input: context.input?.e164 ?? "")
        trace?.message(to: .phoneScreen, "show(PhoneViewModel)")
        screen.show(model) { event in
            switch event {
            case .cancelled:
                trace?.callback(from: .phoneScreen, "cancelled")
                Self.close(screen, trace)
                completion.fail(SignInCancelled.phoneScreenClosed)
            case .submitted(let phone):
                trace?.callback(from: .phoneScreen, "submitted(\(phone.traceLabel))")
                trace?.message(to: .authAPI, "submitPhone(\(phone.traceLabel))")
                api.submitPhone(phone) { result in
                    trace?.reply(from: .authAPI, result.replyLabel { $0.phoneToken.redacted })
                    Self.close(screen, trace)
                    completion.finish(
                        result.map {
                            SignInAttempt(
                                phone: phone, phoneToken: $0.phoneToken, termsRequired: $0.termsRequired,
                                codeLength: $0.codeLength)
                        }.mapError { $0 })
                }
            }
        }
    }

    private static func close(_ screen: any PhoneScreen, _ trace: TraceScope?) {
        trace?.message(to: .phoneScreen, "dismiss()")
        screen.dismiss()
        trace?.release(.phoneScreen)
    }
}
