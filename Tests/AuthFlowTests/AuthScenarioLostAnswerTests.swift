import AuthFlow
import AuthSimulator
import Foundation
import Operations
import OperationsTesting
import Testing

/// Answers lost after the backend acted: the steps with side effects are retried (their policy
/// relaunches side effects, their requests carry keys), and the run still sends one SMS.
struct AuthScenarioLostAnswerTests {
    @Test func lostAnswersAreRetriedAndOneSMSGoesOut() async throws {
        let harness = SignInHarness(
            faults: [.termsAccept: [.lostResponse(times: 1)], .codeSend: [.lostResponse(times: 2)]],
            screens: ScriptedScreens(
                phone: [.submitted(Fixtures.phone)], terms: [.accepted, .accepted], code: [.submitted(Fixtures.code)]))
        let report = await harness.signIn()

        expectKeptContract(report)
        #expect(try harness.storage.loadAuthToken() == report.value())
        #expect(harness.backend.requestCount(for: .termsAccept) == 2)
        #expect(harness.backend.requestCount(for: .codeSend) == 3, "two lost answers, three requests")
        #expect(harness.backend.sentSMS.count == 1, "and one SMS")
    }
}
