public import Operations

/// The part of sign-in after the number: the terms when required, then the code — a scenario of
/// its own so that ``AuthScenario`` can launch it again as a whole when the backend's answer
/// sends the person back (changed terms, an expired phone token).
///
/// A region the flow may go back over is a nested scenario with a failure handler: the engine
/// relaunches the step with a new input, journals it like any other attempt, and draws it in a
/// frame that says why. Nothing here shares state with the steps before it.
public typealias VerificationScenario = Scenario<VerificationRequest, AuthToken>

extension Scenario where Input == VerificationRequest, Output == AuthToken {
    /// The scenario's name in progress lines, journals and diagrams.
    public static var verificationScenarioName: String { "VerificationScenario" }

    /// Chains the verification steps of `factory`.
    ///
    /// - PhoneOp runs only when the request says the phone token expired: the phone screen comes
    ///   back with the number filled in, and the new attempt goes on.
    /// - TermsOfUseOp runs when the attempt requires the terms; its acceptance's token replaces
    ///   the attempt's.
    /// - CodeOp sends the SMS and verifies the code; a wrong code asks again while the backend
    ///   allows (when ``AuthFlowFactory/asksAgain``).
    ///
    /// - Parameter factory: Makes every operation, for every launch and relaunch.
    static func make(with factory: AuthFlowFactory) -> VerificationScenario {
        let retry = factory.retry
        var codeStep = Step(factory.makeCodeOp).retrying(retry.relaunchingSideEffects)
        if factory.asksAgain { codeStep = codeStep.onFailure(AuthScenario.askAgainAfterWrongCode) }
        return VerificationScenario(verificationScenarioName) { chain in
            chain
                .then(
                    Step(factory.makePhoneOp), when: \.renewsPhoneToken, describedAs: "phone token expired",
                    input: \.prefill
                ) { request, renewed in request.renewed(with: renewed) }
                .then(
                    Step(factory.makeTermsOfUseOp).retrying(retry.relaunchingSideEffects),
                    when: \.attempt.termsRequired, describedAs: "terms required", input: \.attempt.phoneToken
                ) { request, acceptance in request.accepting(acceptance) }
                .map { CodeRequest(attempt: $0.attempt) }
                .then(codeStep)
        }
    }
}
