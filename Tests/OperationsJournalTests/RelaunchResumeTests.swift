import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// A run killed inside a relaunch resumes where it stood: the relaunched step gets the input its
/// failure handler gave it, and a step launched again in the resumed process runs anew rather
/// than from the journal's record of the attempt it replaces.
extension JournalTests {
    @Suite struct RelaunchResumeTests {
        typealias KeyedOps = InDoubtResumeTests.KeyedOps
        typealias Refused = InDoubtResumeTests.Refused

        /// `Region` (a nested scenario around the keyed `Confirm`) is relaunched with its input
        /// plus 100 whenever it is refused — as AuthScenario relaunches its verification.
        private func scenario(_ confirm: KeyedOps) -> Scenario<Int, Int> {
            let region: @Sendable () -> Scenario<Int, Int> = {
                Scenario("Region") { $0.then(Step("Confirm", confirm.makeSideEffects)) }
            }
            let correcting = Step("Region", purity: .sideEffects, region).onFailure { failure, decide in
                guard (failure.error as? StepFailure)?.rootCause is Refused else { return decide(.fail) }
                decide(.relaunch(failure.input + 100, because: "corrected"))
            }
            return Scenario("Flow") { $0.then(correcting) }
        }

        /// Session 1: refused at 10, relaunched with 110, killed while Confirm(110) is in flight.
        private func killedInTheRelaunch(_ store: RunStore) throws -> (RunID, IdempotencyKey) {
            let confirm = KeyedOps([.fail(Refused()), .hang])
            let journal = try store.create(scenario: "Flow")
            scenario(confirm).launch(OpContext(10, environment: OpEnvironment(observer: journal))) { _ in }
            try journal.close()
            #expect(confirm.inputs == [10, 110])
            return (journal.runID, try #require(confirm.keys.last ?? nil))
        }

        @Test func theRelaunchedStepResumesWithTheHandlersInputAndItsKey() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (runID, key) = try killedInTheRelaunch(store)

                let resumed = try store.resume(runID)
                let confirm = KeyedOps()
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(scenario(confirm), 10, environment: environment)?.success == 111)
                try resumed.close()
                #expect(confirm.inputs == [110], "the handler's input, not the chain's 10")
                #expect(confirm.keys == [key], "the request its key was sent with, repeated")
            }
        }

        @Test func aStepLaunchedAgainInTheResumedProcessRunsAnew() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (runID, key) = try killedInTheRelaunch(store)

                let resumed = try store.resume(runID)
                let confirm = KeyedOps([.fail(Refused()), .succeed])
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(scenario(confirm), 10, environment: environment)?.success == 211)
                try resumed.close()
                #expect(confirm.inputs == [110, 210])
                #expect(confirm.keys.first == key)
                #expect(confirm.keys.last != key, "the new launch is a new attempt with a key of its own")
            }
        }
    }
}
