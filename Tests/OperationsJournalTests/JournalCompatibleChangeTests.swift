import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

extension JournalTests {
    /// A scenario's author changes steps the runs in the field have not reached yet: those runs
    /// resume under the new build; a change to a step a run reached is refused.
    @Suite struct JournalCompatibleChangeTests {
        /// Steps named by `names`, each `input + 1` unless its ops script says otherwise.
        private func chain(_ names: [String], ops: [String: RecordingOps], version: Int? = nil) -> Scenario<Int, Int> {
            Scenario("Chain", version: version) { chain in
                names.reduce(chain) { chain, name in chain.then(Step(name, (ops[name] ?? RecordingOps()).make)) }
            }
        }

        /// Runs `scenario` as a new journaled run of `store`; the run's id and result.
        private func start(_ scenario: Scenario<Int, Int>, in store: RunStore) throws -> (
            RunID, Result<Int, any Error>?
        ) {
            let journal = try store.create(scenario: scenario)
            let result = run(scenario, 0, environment: OpEnvironment(observer: journal))
            try journal.close()
            return (journal.runID, result)
        }

        /// Resumes run `id` with `scenario`, replaying what the journal completed.
        private func resume(_ id: RunID, with scenario: Scenario<Int, Int>, in store: RunStore) throws -> Result<
            Int, any Error
        >? {
            let journal = try store.resume(id, scenario: scenario)
            let result = run(scenario, 0, environment: OpEnvironment(observer: journal, replay: journal.replay))
            try journal.close()
            return result
        }

        @Test func aStepInsertedAfterTheStepARunReachedRunsWhenTheRunResumes() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let a = RecordingOps()
                let b = RecordingOps([.failure(.broken)])
                let (id, first) = try start(chain(["A", "B", "C"], ops: ["A": a, "B": b]), in: store)
                #expect(first?.failure != nil)

                // v2 inserts Promo between B (where the run stopped) and C.
                let promo = RecordingOps()
                let v2 = chain(["A", "B", "Promo", "C"], ops: ["A": a, "B": b, "Promo": promo], version: 2)
                #expect(try resume(id, with: v2, in: store)?.success == 4)
                #expect(a.launches == [0])  // replayed, not launched again
                #expect(b.launches == [1, 1])
                #expect(promo.launches == [2])

                // The journal now holds v2's shape: the record says so, and v1 can no longer
                // resume it, since the run reached v2's third step.
                let record = try store.load(id)
                #expect(record.shape == v2.shape)
                #expect(record.status == .succeeded)
                #expect {
                    try store.resume(id, scenario: chain(["A", "B", "C"], ops: [:]))
                } throws: { error in
                    guard case .shapeMismatch(_, let mismatch) = error as? JournalError else { return false }
                    return mismatch.description == "step 3: the journal has Promo, this build has C"
                }
            }
        }

        @Test func stepsAppendedOrRemovedPastTheRunsProgressAreCompatible() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let b = RecordingOps([.failure(.broken)])
                let (appendID, _) = try start(chain(["A", "B"], ops: ["B": b]), in: store)
                #expect(try resume(appendID, with: chain(["A", "B", "C"], ops: [:]), in: store)?.success == 3)

                let d = RecordingOps([.failure(.broken)])
                let (removeID, _) = try start(chain(["A", "B", "C", "D"], ops: ["B": d]), in: store)
                #expect(try resume(removeID, with: chain(["A", "B", "D"], ops: [:]), in: store)?.success == 3)
            }
        }

        @Test func aChangeToAStepTheRunReachedIsRefusedAndNothingIsWritten() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let b = RecordingOps([.failure(.broken)])
                let (id, _) = try start(chain(["A", "B", "C"], ops: ["B": b]), in: store)
                let url = store.url(for: id)
                let before = try Data(contentsOf: url)
                for (build, sentence) in [
                    (["Login", "B", "C"], "step 1: the journal has A, this build has Login"),
                    (["A", "Promo", "B", "C"], "step 2: the journal has B, this build has Promo"),
                ] {
                    #expect {
                        try store.resume(id, scenario: chain(build, ops: [:]))
                    } throws: { error in
                        guard case .shapeMismatch(_, let mismatch) = error as? JournalError else { return false }
                        return mismatch.description == sentence
                    }
                }
                #expect(try Data(contentsOf: url) == before)
            }
        }

        @Test func insideANestedScenarioOnlyTheStepsItReachedMustMatch() {
            func step(_ index: Int, _ name: String, nested: ScenarioShape? = nil) -> ScenarioShape.StepShape {
                .init(
                    index: index, name: name, input: "Int", output: "Int", purity: "pure", conditional: false,
                    nested: nested)
            }
            let innerV1 = ScenarioShape(name: "Inner", steps: [step(0, "X"), step(1, "Y")])
            let innerV2 = ScenarioShape(name: "Inner", steps: [step(0, "X"), step(1, "Z")])
            let v1 = ScenarioShape(name: "S", steps: [step(0, "Inner", nested: innerV1), step(1, "After")])
            let v2 = ScenarioShape(name: "S", steps: [step(0, "Inner", nested: innerV2), step(1, "After")])
            let inner = StepAddress.Component(index: 0, name: "Inner")
            // The run stopped in X, inside Inner: Y may change.
            let stoppedInX = [StepAddress(path: [inner]), StepAddress(path: [inner, .init(index: 0, name: "X")])]
            #expect(v2.mismatch(journal: v1, recordedSteps: stoppedInX) == nil)
            // The run reached Y: it may not.
            let reachedY = stoppedInX + [StepAddress(path: [inner, .init(index: 1, name: "Y")])]
            #expect(
                v2.mismatch(journal: v1, recordedSteps: reachedY)?.description
                    == "step 1, step 2: the journal has Y, this build has Z")
            // A run that recorded nothing resumes under anything of the same name.
            #expect(v2.mismatch(journal: v1, recordedSteps: []) == nil)
            #expect(
                ScenarioShape(name: "T", steps: []).mismatch(journal: v1, recordedSteps: [])?.description
                    == "the journal is of scenario S, this build resumes T")
        }

        @Test func aResumedLineWhoseFingerprintDoesNotMatchItsShapeIsDamage() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let b = RecordingOps([.failure(.broken)])
                let (id, _) = try start(chain(["A", "B"], ops: ["B": b]), in: store)
                let v2 = chain(["A", "B", "C"], ops: [:])
                _ = try resume(id, with: v2, in: store)
                let url = store.url(for: id)
                let text = try String(contentsOf: url, encoding: .utf8)
                #expect(text.contains("\"event\":\"resumed\""))
                try withoutChecksums(text).replacingOccurrences(
                    of: "\"fingerprint\":\"\(v2.shape.fingerprint)\"", with: "\"fingerprint\":\"0000000000000000\""
                )
                .write(to: url, atomically: false, encoding: .utf8)
                #expect {
                    try store.load(id)
                } throws: { error in
                    guard case .damaged(_, _, let reason) = error as? JournalError else { return false }
                    return reason.contains("fingerprint")
                }
            }
        }
    }
}
