import AuthFlow
import Operations
import Synchronization
import Testing

/// The wrong-code handler brings the code screen back only for a run that is still going.
struct WrongCodeHandlerTests {
    private func decision(cancelled: Bool) -> FailureDecision<CodeRequest, AuthToken>? {
        let token = CancellationToken()
        if cancelled { token.cancel() }
        let failure = StepFailureInfo(
            step: "CodeOp", attempt: 1, error: AuthError.invalidCode(attemptsLeft: 2),
            input: CodeRequest(attempt: Fixtures.attempt), cancellation: token)
        let decided = Mutex<FailureDecision<CodeRequest, AuthToken>?>(nil)
        AuthScenario.askAgainAfterWrongCode(failure) { decision in decided.withLock { $0 = decision } }
        return decided.withLock { $0 }
    }

    @Test func aWrongCodeAsksAgainWhileTheRunGoesOn() throws {
        guard case .relaunch(let request, _)? = decision(cancelled: false) else {
            Issue.record("expected a relaunch")
            return
        }
        #expect(request.sendsCode == false)
        #expect(request.attemptsLeft == 2)
    }

    @Test func aCancelledRunShowsNoCodeScreenAgain() {
        guard case .fail? = decision(cancelled: true) else {
            Issue.record("expected the step to fail, not to show the code screen again")
            return
        }
    }
}
