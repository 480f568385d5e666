import AuthFlow
import AuthFlowTesting
import Operations
import OperationsTesting
import Testing

/// "Send the code again" waits the backend's `resendAfter`, durably, before sending.
@Suite struct ResendCodeScenarioTests {
    /// Launched and driven from the test's own thread: the wait step finishes inside the
    /// launch and schedules the wait at once, so nothing here waits for another task to start
    /// (an `async let` launch once found no thread free for it on a busy CI machine), and a
    /// scenario that ended early shows its error instead of a timeout.
    @Test func theResendWaitsTheBackendsDelayThenSendsOnce() throws {
        let api = StubAuthAPI(
            sendCode: { _ in .success(CodeDelivery(resendAfter: 60, codeLength: 6)) },
            unimplemented: Fixtures.unexpectedCall)
        let factory = Fixtures.factory(api: api, storage: RecordingLocalStorage(), screens: ScriptedScreens())
        let scheduler = TestScheduler()
        let resend = CodeResend(phoneToken: Fixtures.phoneToken, lastDelivery: Fixtures.delivery)
        let finished = LockedState<Result<CodeDelivery, any Error>?>(nil)
        factory.makeResendCodeScenario().launch(OpContext(resend, environment: OpEnvironment(scheduler: scheduler))) {
            result in finished.withLock { $0 = result }
        }
        if let early = finished.withLock({ $0 }) { Issue.record("finished before the delay: \(early)") }
        #expect(scheduler.requestedDelays == [.seconds(30)], "the last delivery's resendAfter")
        #expect(api.calls.isEmpty, "nothing is sent before the delay")
        scheduler.advance(by: .seconds(30))
        let delivered = try #require(finished.withLock { $0 }, "sent once the delay has passed").get()
        #expect(delivered == CodeDelivery(resendAfter: 60, codeLength: 6))
        #expect(api.calls == [.sendCode(phoneToken: Fixtures.phoneToken)])
    }
}
