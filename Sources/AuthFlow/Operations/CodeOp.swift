public import Operations

/// Requests the SMS code, lets the user enter it, and exchanges it for the auth token.
///
/// Parameterised by the phone token in its ``CodeRequest``; it reads nothing from storage. A
/// wrong code ends the launch with ``AuthError/invalidCode(attemptsLeft:)``: the scenario decides
/// whether to launch it again (asking again, without sending another SMS).
///
/// It has side effects: `code/send` sends an SMS and `code/verify` spends one of the number's
/// attempts, so relaunching it blindly after a lost answer sends another SMS. Both requests carry
/// the launch's ``OpContext/idempotencyKey``: a retry or rerun with the same key gets the
/// backend's first answer instead (one SMS, one verification), and the operation goes on to ask
/// for the code as after a first send. A resend the person asks for on the screen goes without
/// the key, because it must send a new SMS.
public final class CodeOp: Op {
    private let api: any AuthAPI
    private let screens: any AuthScreens

    /// Creates the operation; use ``AuthFlowFactory/makeCodeOp()``.
    public init(api: any AuthAPI, screens: any AuthScreens) {
        self.api = api
        self.screens = screens
    }

    /// Launches the operation: records its messages when tracing is on and finishes exactly once.
    public func launch(_ context: OpContext<CodeRequest>, onFinish: @escaping OnFinish<AuthToken>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let trace = completion.trace
        trace?.declare(.authAPI)
        let request = context.input
        let call = AuthCall(context)
        let model = CodeViewModel(
            phone: request.attempt.phone, codeLength: request.attempt.codeLength, attemptsLeft: request.attemptsLeft,
            errorMessage: request.notice)
        guard request.sendsCode else {
            return ask(model, request: request, completion: completion, call: call)
        }
        send(model, request: request, completion: completion, call: call, firstSend: true)
    }

    /// Sends the SMS, then asks for the code. `firstSend` is the launch's own send (not one the
    /// user asked for on the screen), the only one that carries the launch's key.
    private func send(
        _ model: CodeViewModel, request: CodeRequest, completion: Completion<AuthToken>,
        call: AuthCall, firstSend: Bool
    ) {
        let trace = completion.trace
        trace?.message(to: .authAPI, "sendCode(\(request.attempt.phoneToken.redacted))")
        let sendCall = firstSend ? call : call.withoutKey
        api.sendCode(phoneToken: request.attempt.phoneToken, call: sendCall) { [self] sent in
            trace?.reply(from: .authAPI, sent.replyLabel { "resend after \(Int($0.resendAfter)) s" })
            switch sent {
            case .success(let delivery):
                ask(model.resent(delivery), request: request, completion: completion, call: call)
            case .failure(.rateLimited(let retryAfter)) where firstSend:
                // Too soon after the SMS an earlier launch of this attempt sent (a relaunch after
                // a transient failure): that code is still pending, so ask for it.
                let pending = CodeDelivery(resendAfter: retryAfter ?? 0, codeLength: model.codeLength)
                ask(model.resent(pending), request: request, completion: completion, call: call)
            case .failure(let error):
                completion.fail(error)
            }
        }
    }

    private func ask(
        _ model: CodeViewModel, request: CodeRequest, completion: Completion<AuthToken>,
        call: AuthCall
    ) {
        let trace = completion.trace
        let api = api
        let screen = screens.makeCodeScreen()
        trace?.create(.codeScreen)
        trace?.message(to: .codeScreen, "show(CodeViewModel)")
        let shown = ScreenLifetime(dismiss: screen.dismiss, cancellation: call.cancellation)
        screen.show(model) { [self] event in
            switch event {
            case .cancelled:
                trace?.callback(from: .codeScreen, "cancelled")
                Self.close(shown, trace)
                completion.fail(SignInCancelled.codeScreenClosed)
            case .resendRequested:
                trace?.callback(from: .codeScreen, "resendRequested")
                Self.close(shown, trace)
                send(model, request: request, completion: completion, call: call, firstSend: false)
            case .submitted(let code):
                trace?.callback(from: .codeScreen, "submitted(\(code.redacted))")
                trace?.message(to: .authAPI, "verifyCode(\(code.redacted))")
                api.verifyCode(code, phoneToken: request.attempt.phoneToken, call: call) { verified in
                    trace?.reply(from: .authAPI, verified.replyLabel { $0.redacted })
                    Self.close(shown, trace)
                    completion.finish(verified.mapError { $0 })
                }
            }
        }
    }

    private static func close(_ screen: ScreenLifetime, _ trace: TraceScope?) {
        trace?.message(to: .codeScreen, "dismiss()")
        screen.close()
        trace?.release(.codeScreen)
    }
}
