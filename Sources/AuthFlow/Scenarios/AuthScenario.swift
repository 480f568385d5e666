public import Operations

/// Phone sign-in: launched with a phone number to prefill (or `nil`), finishes with the auth
/// token, which its last step has saved.
public typealias AuthScenario = Scenario<PhoneNumber?, AuthToken>

extension Scenario where Input == PhoneNumber?, Output == AuthToken {
    /// The scenario's name in progress lines, journals and diagrams.
    public static var authScenarioName: String { "AuthScenario" }

    /// Chains the sign-in operations of `factory`.
    ///
    /// - PhoneOp retries its own request by the factory's policy, after the number was entered,
    ///   so the phone screen is shown once; the step is not retried again here.
    /// - Other transient backend failures are retried by the factory's policy, the steps with side
    ///   effects too (terms acceptance, code): their requests carry the attempt's idempotency key,
    ///   and the engine reuses it after an uncertain failure, so a retry gets the backend's first
    ///   answer instead of sending another SMS.
    /// - A wrong code launches ``CodeOp`` again — the screen asks again, no new SMS — until the
    ///   backend has no attempts left.
    /// - Declined terms or a closed screen end the scenario as cancelled.
    ///
    /// - Parameter factory: Makes every operation, for every launch and relaunch.
    /// - Returns: The scenario.
    static func make(with factory: AuthFlowFactory) -> AuthScenario {
        let retry = factory.retry
        var codeStep = Step(factory.makeCodeOp).retrying(retry.relaunchingSideEffects)
        if factory.asksAgainAfterWrongCode { codeStep = codeStep.onFailure(askAgainAfterWrongCode) }
        return AuthScenario(authScenarioName) { chain in
            chain
                .then(Step(factory.makePhoneOp))
                .then(
                    Step(factory.makeTermsOfUseOp).retrying(retry.relaunchingSideEffects), when: \.termsRequired,
                    describedAs: "terms required", input: \.phoneToken
                ) { attempt, acceptance in attempt.accepting(acceptance) }
                .map { CodeRequest(attempt: $0) }
                .then(codeStep)
                .then(Step(factory.makeSaveTokenOp).retrying(retry.relaunchingSideEffects))
        }
    }

    /// Relaunches the code step after a wrong code while the backend allows more attempts.
    ///
    /// The code screen it brings back is the relaunched code step's own, so cancellation closes
    /// it there; a run already cancelled when the handler is asked shows no screen again.
    /// Public so another app wiring its own code step can reuse the rule.
    ///
    /// - Parameters:
    ///   - failure: The failed code step.
    ///   - decide: Called once with the decision.
    @Sendable
    public static func askAgainAfterWrongCode(
        _ failure: StepFailureInfo<CodeRequest>,
        _ decide: @escaping @Sendable (FailureDecision<CodeRequest, AuthToken>) -> Void
    ) {
        guard failure.cancellation?.isCancelled != true else { return decide(.fail) }
        guard case AuthError.invalidCode(let attemptsLeft)? = failure.error as? AuthError, attemptsLeft > 0 else {
            return decide(.fail)
        }
        let request = failure.input
        decide(
            .relaunch(
                CodeRequest(
                    attempt: request.attempt, sendsCode: false, notice: "Wrong code.", attemptsLeft: attemptsLeft),
                because: "wrong code, asked again (\(attemptsLeft) \(attemptsLeft == 1 ? "attempt" : "attempts") left)")
        )
    }
}

extension RetryPolicy {
    /// The same policy, allowed to retry steps with side effects: those whose requests carry
    /// idempotency keys (terms, code) and idempotent ones such as saving a token.
    package var relaunchingSideEffects: RetryPolicy {
        var copy = self
        copy.relaunchesSideEffects = true
        return copy
    }
}
