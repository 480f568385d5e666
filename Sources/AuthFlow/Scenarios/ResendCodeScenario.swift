public import Operations

extension AuthFlowFactory {
    /// "Send the code again", honouring the backend's `resendAfter` through a durable wait: the
    /// wait's deadline is journaled, so a run killed during it and resumed waits only what is
    /// left, and a deadline already passed is not waited for again; then a new SMS is sent.
    ///
    /// A scenario of its own, launched when the person asks for another code outside the
    /// sign-in's code screen; the sign-in (``makeAuthScenario()``) is unchanged.
    ///
    /// - Returns: The scenario, from the attempt's token and last delivery to the new delivery.
    public func makeResendCodeScenario() -> Scenario<CodeResend, CodeDelivery> {
        let api = api
        return Scenario("ResendCodeScenario", version: 1) { chain in
            chain
                .wait("ResendDelay", for: \.resendDelay)
                .then(Step { ResendCodeOp(api: api) })
        }
    }
}
