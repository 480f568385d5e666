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

    /// Launches the operation: records its messages when tracing is on and finishes exactly once.
    public func launch(_ context: OpContext<PhoneToken>, onFinish: @escaping OnFinish<TermsAcceptance>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let trace = completion.trace
        trace?.declare(.authAPI)
        let api = api
        let screens = screens
        let phoneToken = context.input
        trace?.message(to: .authAPI, "fetchTerms(\(phoneToken.redacted))")
        api.fetchTerms(phoneToken: phoneToken) { fetched in
            trace?.reply(from: .authAPI, fetched.replyLabel { "terms v\($0.version)" })
            switch fetched {
            case .failure(let error):
                completion.fail(error)
            case .success(let terms):
                let screen = screens.makeTermsScreen()
                trace?.create(.termsScreen)
                trace?.message(to: .termsScreen, "show(TermsViewModel)")
                let shown = ScreenLifetime(dismiss: screen.dismiss, cancellation: context.cancellation)
                screen.show(TermsViewModel(terms: terms)) { event in
                    switch event {
                    case .declined:
                        trace?.callback(from: .termsScreen, "declined")
                        Self.close(shown, trace)
                        completion.fail(SignInCancelled.termsDeclined)
                    case .accepted:
                        trace?.callback(from: .termsScreen, "accepted")
                        trace?.message(to: .authAPI, "acceptTerms(v\(terms.version))")
                        api.acceptTerms(version: terms.version, phoneToken: phoneToken) { accepted in
                            trace?.reply(from: .authAPI, accepted.replyLabel { $0.phoneToken.redacted })
                            Self.close(shown, trace)
                            completion.finish(accepted.mapError { $0 })
                        }
                    }
                }
            }
        }
    }

    private static func close(_ screen: ScreenLifetime, _ trace: TraceScope?) {
        trace?.message(to: .termsScreen, "dismiss()")
        screen.close()
        trace?.release(.termsScreen)
    }
}
