import AuthFlow
import AuthFlowTesting
import Operations
import OperationsTesting
import Testing

/// "Send the code again" waits the backend's `resendAfter`, durably, before sending.
@Suite struct ResendCodeScenarioTests {
    @Test func theResendWaitsTheBackendsDelayThenSendsOnce() async throws {
        let api = StubAuthAPI(
            sendCode: { _ in .success(CodeDelivery(resendAfter: 60, codeLength: 6)) },
            unimplemented: Fixtures.unexpectedCall)
        let factory = Fixtures.factory(api: api, storage: RecordingLocalStorage(), screens: ScriptedScreens())
        let scheduler = TestScheduler()
        let resend = CodeResend(phoneToken: Fixtures.phoneToken, lastDelivery: Fixtures.delivery)
        async let sent = factory.makeResendCodeScenario().launchAndAwait(
            OpContext(resend, environment: OpEnvironment(scheduler: scheduler)))
        try await scheduler.waitForPendingWork()
        #expect(scheduler.requestedDelays == [.seconds(30)], "the last delivery's resendAfter")
        #expect(api.calls.isEmpty, "nothing is sent before the delay")
        scheduler.advance(by: .seconds(30))
        #expect(try await sent == CodeDelivery(resendAfter: 60, codeLength: 6))
        #expect(api.calls == [.sendCode(phoneToken: Fixtures.phoneToken)])
    }
}
