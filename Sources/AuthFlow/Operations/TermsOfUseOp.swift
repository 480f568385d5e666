public import Operations

/// Fetches the personal terms of use, shows them, and sends the acceptance.
///
/// Launched with a phone token, so it is reusable on its own: in ``AuthScenario`` before the
/// code is requested, and in ``AppScenario`` whenever the terms change for a signed-in user.
/// Declining ends the launch with ``SignInCancelled/termsDeclined``.
///
/// It has side effects: `terms/accept` records the person's consent on the backend (and, for a
/// re-acceptance, issues a new access token). The acceptance carries the launch's
/// ``OpContext/idempotencyKey``, so a retry or rerun after a lost answer gets the first receipt
/// instead of accepting twice.
public final class TermsOfUseOp: Op {
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
        let call = AuthCall(context)
        trace?.message(to: .authAPI, "fetchTerms(\(phoneToken.redacted))")
        api.fetchTerms(phoneToken: phoneToken, call: call.withoutKey) { fetched in
            trace?.reply(from: .authAPI, fetched.replyLabel { "terms v\($0.version)" })
            switch fetched {
            case .failure(let error):
                completion.fail(error)
            case .success(let terms):
                let screen = screens.makeTermsScreen()
                let model = TermsViewModel(api: api, terms: terms)
                trace?.create(.termsViewModel, "create(AuthAPI)")
                let viewModel = trace?.scope(for: .termsViewModel)
                let shown = ScreenLifetime(
                    dismiss: screen.dismiss, cancellation: context.cancellation, viewModel: .termsViewModel,
                    trace: trace)
                let prompt = ScreenPrompt<TermsScreenEvent>(
                    for: context, operation: "TermsOfUseOp", deliverOn: screens.promptDelivery
                ) { answer in
                    switch answer {
                    case .failure(let error):
                        // Nobody could answer (`PromptUnanswerable`): cancelled, nothing accepted.
                        trace?.callback(from: .router, "unanswered")
                        shown.close()
                        completion.fail(error)
                    case .success(.declined):
                        trace?.callback(from: .router, "declined")
                        shown.close()
                        completion.fail(SignInCancelled.termsDeclined)
                    case .success(.accepted):
                        trace?.callback(from: .router, "accepted")
                        trace?.message(to: .termsViewModel, "accept()")
                        viewModel?.message(to: .authAPI, "acceptTerms(v\(terms.version))")
                        model.accept(phoneToken: phoneToken, call: call.request("accept")) { accepted in
                            let label = accepted.replyLabel { $0.phoneToken.redacted }
                            viewModel?.reply(from: .authAPI, label)
                            trace?.reply(from: .termsViewModel, label)
                            shown.close()
                            completion.finish(accepted.mapError { $0 })
                        }
                    }
                }
                trace?.message(to: .router, "bind(TermsViewModel)")
                screen.show(model, prompt)
            }
        }
    }
}
