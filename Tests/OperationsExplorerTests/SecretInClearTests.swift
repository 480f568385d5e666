import Foundation
import Testing

@testable import OperationsExplorer

/// The explorer's "a secret in clear" finds a secret as a value of the journal's and nowhere
/// else: not inside the run's id, which holds the time of day between dashes.
struct SecretInClearTests {
    let runID = "20261129-123456-452-0a7393b3"

    @Test func aRunMadeAtTheSecretsTimeOfDayHoldsNoSecret() {
        let header = Data(#"{"event":"header","runID":"\#(runID)","scenario":"AuthScenario"}"#.utf8)
        #expect(ScheduleRun<Void, Void>.holds(header, "123456"))
        #expect(!ScheduleRun<Void, Void>.holds(header, "123456", apartFrom: runID))
    }

    @Test func theSecretAsAValueIsFoundBesideTheRunsID() {
        let lines = Data(#"{"runID":"\#(runID)"}{"input":{"code":"123456"}}"#.utf8)
        #expect(ScheduleRun<Void, Void>.holds(lines, "123456", apartFrom: runID))
    }
}
