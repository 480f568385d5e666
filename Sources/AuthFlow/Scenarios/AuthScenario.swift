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
    ///   so the phone screen is shown once; the step is not retried again here. A rejected number
    ///   is asked for again on the same screen (when ``AuthFlowFactory/asksAgain``).
    /// - ``VerificationScenario`` shows the terms when required and verifies the code. Transient
    ///   backend failures are retried inside it by the factory's policy, the steps with side
    ///   effects too (terms acceptance, code): their requests carry the attempt's idempotency key,
    ///   and the engine reuses it after an uncertain failure, so a retry gets the backend's first
    ///   answer instead of sending another SMS. A wrong code asks again there.
    /// - When the backend answers that the terms changed since they were shown, or that the
    ///   phone token expired, the verification is launched again as a whole — showing the new
    ///   terms, or the phone screen with the number filled in — when ``AuthFlowFactory/asksAgain``
    ///   (``correctVerification(_:_:)``); a script cannot answer, so the run fails instead.
    /// - Declined terms or a closed screen end the scenario as cancelled.
    ///
    /// - Parameter factory: Makes every operation, for every launch and relaunch.
    static func make(with factory: AuthFlowFactory) -> AuthScenario {
        let retry = factory.retry
        var verification = Step(
            VerificationScenario.verificationScenarioName, purity: .sideEffects, factory.makeVerificationScenario)
        if factory.asksAgain { verification = verification.onFailure(correctVerification) }
        return AuthScenario(authScenarioName) { chain in
            chain
                .then(Step(factory.makePhoneOp))
                .map { VerificationRequest(attempt: $0) }
                .then(verification)
                .then(Step(factory.makeSaveTokenOp).retrying(retry.relaunchingSideEffects))
        }
    }

    /// How many times ``correctVerification(_:_:)`` launches the verification again before it
    /// lets the failure end the run: terms that keep changing, or tokens that keep expiring, are
    /// a backend's problem no person can correct.
    public static var verificationCorrections: Int { 3 }

    /// Launches the verification again after an answer the person can correct: changed terms
    /// (`terms_outdated`, `terms_not_accepted`) are fetched and shown again; an expired phone
    /// token brings the phone screen back with the number filled in.
    ///
    /// Public so another app wiring its own verification step can reuse the rule.
    ///
    /// - Parameters:
    ///   - failure: The failed verification.
    ///   - decide: Called once with the decision.
    @Sendable
    public static func correctVerification(
        _ failure: StepFailureInfo<VerificationRequest>,
        _ decide: @escaping @Sendable (FailureDecision<VerificationRequest, AuthToken>) -> Void
    ) {
        guard failure.cancellation?.isCancelled != true, failure.attempt <= verificationCorrections else {
            return decide(.fail)
        }
        let cause = (failure.error as? StepFailure)?.rootCause ?? failure.error
        let request = failure.input
        switch cause as? AuthError {
        case .termsOutdated(let version)?:
            let reason = "terms changed" + (version.map { " to v\($0)" } ?? "") + ", shown again"
            // A request that renewed an expired token renews it again: the old one is still expired.
            let again = VerificationRequest(
                attempt: request.attempt.requiringTerms(), renewsPhoneToken: request.renewsPhoneToken)
            decide(.relaunch(again, because: reason))
        case .unauthorized?:
            decide(
                .relaunch(
                    VerificationRequest(attempt: request.attempt, renewsPhoneToken: true),
                    because: "phone token expired, number asked again"))
        default:
            decide(.fail)
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
