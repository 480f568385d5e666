package import Operations

/// The part the code operations share (`StatefulCodeOp` is in Examples/StatefulAuthFlow, hence
/// `package`): send the SMS (unless it was sent already), create the code view model (handed
/// ``AuthAPI``) and bind it to a screen through the router, verify what the person enters through
/// the view model, resend when asked, and dismiss the screen — recording each message when
/// tracing is on. ``CodeOp`` finishes with the token; ``AuthOp`` (the article's
/// operation before the split) runs it after its own phone screen.
///
/// Its requests' keys are as ``CodeOp`` describes them; ``verifyRequest(_:)`` names a
/// verification's.
package struct CodeEntry {
    let api: any AuthAPI
    let screens: any AuthScreens

    package init(api: any AuthAPI, screens: any AuthScreens) {
        self.api = api
        self.screens = screens
    }

    /// Runs the entry for `request` (the attempt, whether to send the SMS, what to tell the person)
    /// and calls `finished` once with the token or the failure; the screen is already closed then.
    package func run(
        _ request: CodeRequest, call: AuthCall, trace: TraceScope?,
        finished: @escaping @Sendable (Result<AuthToken, any Error>) -> Void
    ) {
        trace?.declare(.authAPI)
        let model = CodeViewModel(
            api: api, phone: request.attempt.phone, codeLength: request.attempt.codeLength,
            attemptsLeft: request.attemptsLeft,
            errorMessage: request.notice)
        guard request.sendsCode else {
            return ask(model, request: request, call: call, trace: trace, finished: finished)
        }
        send(model, request: request, call: call, trace: trace, firstSend: true, finished: finished)
    }

    /// Sends the SMS, then asks for the code. `firstSend` is the launch's own send (not one the
    /// user asked for on the screen), the only one that carries the launch's key.
    private func send(
        _ model: CodeViewModel, request: CodeRequest, call: AuthCall, trace: TraceScope?, firstSend: Bool,
        finished: @escaping @Sendable (Result<AuthToken, any Error>) -> Void
    ) {
        trace?.message(to: .authAPI, "sendCode(\(request.attempt.phoneToken.redacted))")
        let sendCall = firstSend ? call.request("send") : call.withoutKey
        api.sendCode(phoneToken: request.attempt.phoneToken, call: sendCall) { sent in
            trace?.reply(from: .authAPI, sent.replyLabel { "resend after \(Int($0.resendAfter)) s" })
            switch sent {
            case .success(let delivery):
                ask(model.resent(delivery), request: request, call: call, trace: trace, finished: finished)
            case .failure(.rateLimited(let retryAfter)) where firstSend && sendCall.idempotencyKey == nil:
                // Without a key, too soon after the SMS an earlier launch of this attempt sent (a
                // relaunch after a transient failure): that code is still pending, so ask for it.
                // With a key, a repeat gets the first answer back, so a 429 means nothing was
                // sent: a transient failure, retried like any other.
                let pending = CodeDelivery(resendAfter: retryAfter ?? 0, codeLength: model.codeLength)
                ask(model.resent(pending), request: request, call: call, trace: trace, finished: finished)
            case .failure(let error):
                finished(.failure(error))
            }
        }
    }

    private func ask(
        _ model: CodeViewModel, request: CodeRequest, call: AuthCall, trace: TraceScope?,
        finished: @escaping @Sendable (Result<AuthToken, any Error>) -> Void
    ) {
        let screen = screens.makeCodeScreen()
        trace?.create(.codeViewModel, "create(AuthAPI)")
        let viewModel = trace?.scope(for: .codeViewModel)
        let shown = ScreenLifetime(
            dismiss: screen.dismiss, cancellation: call.cancellation, viewModel: .codeViewModel, trace: trace)
        let prompt = ScreenPrompt<CodeScreenEvent>(
            cancellation: call.cancellation, operation: "CodeOp", deliverOn: screens.promptDelivery
        ) { answer in
            switch answer {
            case .failure(let error):
                // Nobody could answer (`PromptUnanswerable`): cancelled; the code sent stays valid
                // for a rerun with it.
                trace?.callback(from: .router, "unanswered")
                shown.close()
                finished(.failure(error))
            case .success(.cancelled):
                trace?.callback(from: .router, "cancelled")
                shown.close()
                finished(.failure(SignInCancelled.codeScreenClosed))
            case .success(.resendRequested):
                trace?.callback(from: .router, "resendRequested")
                shown.close()
                send(model, request: request, call: call, trace: trace, firstSend: false, finished: finished)
            case .success(.submitted(let code)):
                trace?.callback(from: .router, "submitted(\(code.redacted))")
                trace?.message(to: .codeViewModel, "verify(\(code.redacted))")
                viewModel?.message(to: .authAPI, "verifyCode(\(code.redacted))")
                let verifyCall = call.request(Self.verifyRequest(code))
                model.verify(code, phoneToken: request.attempt.phoneToken, call: verifyCall) { verified in
                    let label = verified.replyLabel { $0.redacted }
                    viewModel?.reply(from: .authAPI, label)
                    trace?.reply(from: .codeViewModel, label)
                    shown.close()
                    finished(verified.mapError { $0 })
                }
            }
        }
        trace?.message(to: .router, "bind(CodeViewModel)")
        screen.show(model, prompt)
    }

    /// The name of a verification among the launch's requests: a verification of another code is
    /// another request, so it gets another key. A rerun of a step that failed on a wrong code
    /// relaunches it under the same launch key with the code given again; were the key the same,
    /// a backend that keeps answers by key would refuse it as a key reused for a different body
    /// (`422 idempotency_key_reused`). The same code repeated (a lost answer, a kill) gets the
    /// same key and the backend's first answer.
    package static func verifyRequest(_ code: SMSCode) -> String {
        "verify:" + code.revealed
    }
}
