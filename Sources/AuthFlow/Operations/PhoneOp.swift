public import Operations

/// Sends the phone number and returns the sign-in attempt through `onFinish` — the pure variant:
/// nothing is written anywhere, so a failed launch can simply be launched again.
///
/// Launched with a phone number to prefill (or `nil`), it creates the phone screen, lets the user
/// confirm or type the number, and submits it to ``AuthAPI``.
public final class PhoneOp: PureOp {
    private let api: any AuthAPI
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makePhoneOp()``.
    public init(api: any AuthAPI, screens: any AuthScreens) {
        self.api = api
        self.screens = screens
    }

    public func launch(_ context: OpContext<PhoneNumber?>, onFinish: @escaping OnFinish<SignInAttempt>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let api = api
        let screen = screens.makePhoneScreen()
        screen.show(PhoneViewModel(input: context.input?.e164 ?? "")) { event in
            switch event {
            case .cancelled:
                screen.dismiss()
                completion.fail(SignInCancelled.phoneScreenClosed)
            case .submitted(let phone):
                api.submitPhone(phone) { result in
                    screen.dismiss()
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
}
