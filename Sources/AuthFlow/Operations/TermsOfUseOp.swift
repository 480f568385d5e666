public import Operations

/// Fetches the personal terms of use, shows them, and sends the acceptance.
///
/// Launched with a phone token, so it is reusable on its own: in ``AuthScenario`` before the
/// code is requested, and in ``AppScenario`` whenever the terms change for a signed-in user.
/// Declining ends the launch with ``SignInCancelled/termsDeclined``.
public final class TermsOfUseOp: PureOp {
    private let api: any AuthAPI
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makeTermsOfUseOp()``.
    public init(api: any AuthAPI, screens: any AuthScreens) {
        self.api = api
        self.screens = screens
    }

    public func launch(_ context: OpContext<PhoneToken>, onFinish: @escaping OnFinish<TermsAcceptance>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let api = api
        let screens = screens
        let phoneToken = context.input
        api.fetchTerms(phoneToken: phoneToken) { fetched in
            switch fetched {
            case .failure(let error):
                completion.fail(error)
            case .success(let terms):
                let screen = screens.makeTermsScreen()
                screen.show(TermsViewModel(terms: terms)) { event in
                    switch event {
                    case .declined:
                        screen.dismiss()
                        completion.fail(SignInCancelled.termsDeclined)
                    case .accepted:
                        api.acceptTerms(version: terms.version, phoneToken: phoneToken) { accepted in
                            screen.dismiss()
                            completion.finish(accepted.mapError { $0 })
                        }
                    }
                }
            }
        }
    }
}
