public import Operations

/// Requests the SMS code, lets the user enter it, and exchanges it for the auth token.
///
/// Parameterised by the phone token in its ``CodeRequest``; it reads nothing from storage. A
/// wrong code ends the launch with ``AuthError/invalidCode(attemptsLeft:)``: the scenario decides
/// whether to launch it again (asking again, without sending another SMS).
public final class CodeOp: PureOp {
    private let api: any AuthAPI
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makeCodeOp()``.
    public init(api: any AuthAPI, screens: any AuthScreens) {
        self.api = api
        self.screens = screens
    }

    public func launch(_ context: OpContext<CodeRequest>, onFinish: @escaping OnFinish<AuthToken>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let request = context.input
        let model = CodeViewModel(
            phone: request.attempt.phone, codeLength: request.attempt.codeLength, attemptsLeft: request.attemptsLeft,
            errorMessage: request.notice)
        guard request.sendsCode else {
            return ask(model, request: request, completion: completion)
        }
        api.sendCode(phoneToken: request.attempt.phoneToken) { [self] sent in
            switch sent {
            case .failure(.rateLimited(let retryAfter)):
                // Too soon after the SMS an earlier launch of this attempt sent (a relaunch after a
                // transient failure): that code is still pending, so ask for it.
                let pending = CodeDelivery(resendAfter: retryAfter ?? 0, codeLength: model.codeLength)
                ask(model.resent(pending), request: request, completion: completion)
            case .failure(let error): completion.fail(error)
            case .success(let delivery): ask(model.resent(delivery), request: request, completion: completion)
            }
        }
    }

    private func ask(_ model: CodeViewModel, request: CodeRequest, completion: Completion<AuthToken>) {
        let api = api
        let screen = screens.makeCodeScreen()
        screen.show(model) { event in
            switch event {
            case .cancelled:
                screen.dismiss()
                completion.fail(SignInCancelled.codeScreenClosed)
            case .resendRequested:
                screen.dismiss()
                api.sendCode(phoneToken: request.attempt.phoneToken) { sent in
                    switch sent {
                    case .failure(let error): completion.fail(error)
                    case .success(let delivery): self.ask(model.resent(delivery), request: request, completion: completion)
                    }
                }
            case .submitted(let code):
                api.verifyCode(code, phoneToken: request.attempt.phoneToken) { verified in
                    screen.dismiss()
                    completion.finish(verified.mapError { $0 })
                }
            }
        }
    }
}
