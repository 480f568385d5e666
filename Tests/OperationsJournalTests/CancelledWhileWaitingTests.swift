import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// A step with side effects cancelled while it waited for a person (Ctrl-C at its screen) had no
/// request on its way: it reads as cancelled, not in doubt. Interrupted with a request perhaps on
/// its way — not waiting, or waiting beside another step in flight — it is in doubt (issue 36).
struct CancelledWhileWaitingTests {
    static let code = StepAddress((0, "CodeOp"))
    static let phone = StepAddress((1, "PhoneOp"))

    /// The history of `CodeOp` in a run interrupted while it was in flight: `parked` says whether
    /// the run waited (at the step's screen) when the interruption came, `beside` whether another
    /// step was in flight too.
    func interruptedStep(parked: Bool, beside: Bool) throws -> RunHistory.Step {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let journal = try store.create(scenario: "SignIn")
            func event(_ kind: ScenarioEvent.Kind, _ address: StepAddress) {
                journal.scenario(
                    ScenarioEvent(
                        kind: kind, scenario: "SignIn", address: address, attempt: 1, duration: nil, value: 1,
                        purity: .sideEffects, idempotencyKey: IdempotencyKey("0123456789abcdef0123456789abcdef")))
            }
            event(.scenarioStarted, StepAddress(path: []))
            event(.stepLaunched, Self.code)
            if beside { event(.stepLaunched, Self.phone) }
            if parked { journal.runParked() }
            journal.noteInterruption()
            if parked { journal.runGoesOn() }
            event(.stepFailed(OpError.cancelled, willRetry: false, delay: nil), Self.code)
            if beside { event(.stepFailed(OpError.cancelled, willRetry: false, delay: nil), Self.phone) }
            event(.scenarioFailed(OpError.cancelled), StepAddress(path: []))
            try journal.close()
            let record = try store.load(journal.runID)
            #expect(record.status == .interrupted)
            return try #require(RunHistory(record).step(at: Self.code))
        }
    }

    @Test func cancelledAtItsScreenIsCancelledNotInDoubt() throws {
        let step = try interruptedStep(parked: true, beside: false)
        #expect(step.outcome == .cancelled)
        #expect(!step.isInDoubt)
        #expect(step.keyInDoubt == nil)
    }

    @Test(arguments: [(false, false), (true, true)])
    func interruptedWithARequestPerhapsOnItsWayIsInDoubt(parked: Bool, beside: Bool) throws {
        let step = try interruptedStep(parked: parked, beside: beside)
        #expect(step.outcome == .cancelled)
        #expect(step.isInDoubt)
    }
}
