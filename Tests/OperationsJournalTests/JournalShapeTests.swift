import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

extension JournalTests {
    @Suite struct JournalShapeTests {
        private func chain(_ names: [String], ops: RecordingOps = RecordingOps(), version: Int? = nil) -> Scenario<
            Int, Int
        > {
            Scenario("Chain", version: version) { chain in
                names.reduce(chain) { chain, name in chain.then(Step(name, ops.make)) }
            }
        }

        private func step(_ index: Int, _ name: String, purity: String = "pure") -> ScenarioShape.StepShape {
            ScenarioShape.StepShape(
                index: index, name: name, input: "Int", output: "Int", purity: purity, conditional: false)
        }

        @Test func aScenarioDescribesItsStepsTypesPurityConditionsAndNestingWithoutLaunching() {
            let launches = Counter()
            let inner = RecordingOps()
            let outer = Scenario<Int, String>("Outer", version: 3) { chain in
                chain
                    .then(Step(DoubleOp.init))
                    .then(Step(DoubleOp.init), when: { $0 > 0 })
                    .then(
                        Step {
                            launches.increment()
                            return Scenario<Int, Int>("Inner") { $0.then(Step("Add", inner.make)) }
                        }
                    )
                    .then(Step(DescribeOp.init))
            }
            let shape = outer.shape
            #expect(
                shape.text == """
                    Outer v3
                      0 DoubleOp: Int -> Int, pure
                      1 DoubleOp: Int -> Int, pure, conditional
                      2 Scenario<Int, Int>: Int -> Int, side effects
                        Inner
                          0 Add: Int -> Int, pure
                      3 DescribeOp: Int -> String, pure
                    """)
            #expect(shape.steps[2].nested?.steps.map(\.name) == ["Add"])
            #expect(inner.launches.isEmpty)
            #expect(launches.count == 1)  // the factory made one scenario to read its shape
        }

        @Test func theFingerprintIsStableAndChangesWithTheShape() {
            let a = chain(["PhoneOp", "CodeOp"]).shape
            #expect(a.fingerprint == chain(["PhoneOp", "CodeOp"]).shape.fingerprint)
            #expect(a.fingerprint.count == 16)
            #expect(a.fingerprint.allSatisfy { $0.isHexDigit })
            #expect(a.fingerprint != chain(["PhoneOp", "PromoCodeOp"]).shape.fingerprint)
            #expect(a.fingerprint != chain(["PhoneOp", "CodeOp"], version: 2).shape.fingerprint)
        }

        @Test(arguments: [
            (
                ["A", "B", "CodeOp"], ["A", "B", "PromoCodeOp"],
                "step 3: the journal has CodeOp, this build has PromoCodeOp"
            ),
            (["A", "B"], ["A", "B", "C"], "step 3: the journal has no such step, this build has C"),
            (["A", "B", "C"], ["A", "B"], "step 3: the journal has C, this build has no such step"),
        ])
        func aMismatchNamesTheFirstStepThatDiffersAndHow(journal: [String], build: [String], sentence: String) {
            let recorded = ScenarioShape(name: "S", steps: journal.enumerated().map { step($0, $1) })
            let current = ScenarioShape(name: "S", steps: build.enumerated().map { step($0, $1) })
            #expect(current.mismatch(journal: recorded)?.description == sentence)
            #expect(current.mismatch(journal: current) == nil)
        }

        @Test func typePurityAndNestingDifferencesAreNamed() {
            let recorded = ScenarioShape(name: "S", steps: [step(0, "CodeOp")])
            let impure = ScenarioShape(name: "S", steps: [step(0, "CodeOp", purity: "side effects")])
            #expect(
                impure.mismatch(journal: recorded)?.description
                    == "step 1: CodeOp is pure in the journal, side effects in this build")
            let retyped = ScenarioShape(
                name: "S",
                steps: [
                    .init(index: 0, name: "CodeOp", input: "Int", output: "String", purity: "pure", conditional: false)
                ])
            #expect(
                retyped.mismatch(journal: recorded)?.description
                    == "step 1: CodeOp takes Int -> Int in the journal, Int -> String in this build")
            let innerOld = ScenarioShape(name: "Inner", steps: [step(0, "X")])
            let innerNew = ScenarioShape(name: "Inner", steps: [step(0, "Y")])
            let nest = { (inner: ScenarioShape) in
                ScenarioShape(
                    name: "S",
                    steps: [
                        .init(
                            index: 0, name: "Inner", input: "Int", output: "Int", purity: "pure", conditional: false,
                            nested: inner)
                    ])
            }
            #expect(
                nest(innerNew).mismatch(journal: nest(innerOld))?.description
                    == "step 1, step 1: the journal has X, this build has Y")
            #expect(
                ScenarioShape(name: "T", steps: []).mismatch(journal: recorded)?.description
                    == "the journal is of scenario S, this build resumes T")
        }

        @Test func theHeaderRecordsShapeFingerprintVersionAndSettings() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let scenario = chain(["A", "B"], version: 2)
                let journal = try store.create(scenario: scenario, settings: ["backend": "simulated"])
                try journal.close()
                let header = try String(contentsOf: journal.url, encoding: .utf8).split(separator: "\n")[0]
                #expect(header.contains("\"fingerprint\":\"\(scenario.shape.fingerprint)\""))
                #expect(header.contains("\"scenarioVersion\":2"))
                let record = try store.load(journal.runID)
                #expect(record.shape == scenario.shape)
                #expect(record.settings == ["backend": "simulated"])
                #expect(record.scenario == "Chain")
            }
        }

        @Test func resumingWithAnotherShapeIsRefusedBeforeAnythingLaunchesOrIsWritten() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ops = RecordingOps([.success(1), .failure(.broken)])
                let journal = try store.create(scenario: chain(["PhoneOp", "CodeOp"]))
                _ = run(chain(["PhoneOp", "CodeOp"], ops: ops), 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                let before = try Data(contentsOf: journal.url)

                let changed = chain(["PhoneOp", "PromoCodeOp"], ops: ops)
                #expect(throws: JournalError.self) { try store.resume(journal.runID, scenario: changed) }
                do throws(JournalError) {
                    _ = try store.resume(journal.runID, scenario: changed)
                } catch {
                    guard case .shapeMismatch(_, let mismatch) = error else {
                        Issue.record("expected a shape mismatch, got \(error)")
                        return
                    }
                    #expect(mismatch.description == "step 2: the journal has CodeOp, this build has PromoCodeOp")
                    #expect(error.description.hasSuffix("step 2: the journal has CodeOp, this build has PromoCodeOp"))
                }
                #expect(try Data(contentsOf: journal.url) == before)
                #expect(ops.launches.count == 2)

                let same = try store.resume(journal.runID, scenario: chain(["PhoneOp", "CodeOp"]))
                #expect(same.resumedFrom?.status == .failed)
                try same.close()
            }
        }

        @Test func aJournalCreatedAtAFileRecordsItsScenariosShapeAndResumesOnlyWithIt() throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("run.jsonl")
                let ops = RecordingOps([.success(1), .failure(.broken)])
                let journal = try ScenarioJournal.create(
                    at: url, scenario: chain(["PhoneOp", "CodeOp"]), settings: ["backend": "simulated"])
                _ = run(chain(["PhoneOp", "CodeOp"], ops: ops), 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                let record = try ScenarioJournal.load(url)
                #expect(record.shape == chain(["PhoneOp", "CodeOp"]).shape)
                #expect(record.settings == ["backend": "simulated"])
                let before = try Data(contentsOf: url)

                #expect(throws: JournalError.self) {
                    try ScenarioJournal.resume(at: url, shape: chain(["PhoneOp", "PromoCodeOp"]).shape)
                }
                #expect(try Data(contentsOf: url) == before)
                let same = try ScenarioJournal.resume(at: url, shape: chain(["PhoneOp", "CodeOp"]).shape)
                #expect(same.resumedFrom?.status == .failed)
                try same.close()
            }
        }

        @Test func aJournalWithoutShapeListsButIsNotResumedAgainstAScenario() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Chain")
                try journal.close()
                #expect(try store.runs().count == 1)
                #expect(try store.load(journal.runID).shape == nil)
                #expect(throws: JournalError.missingShape(journal.url, scenario: "Chain")) {
                    try store.resume(journal.runID, scenario: chain(["A"]))
                }
            }
        }

        @Test func aHeaderWhoseFingerprintDoesNotMatchItsShapeIsDamage() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let scenario = chain(["A"])
                let journal = try store.create(scenario: scenario)
                try journal.close()
                let text = try String(contentsOf: journal.url, encoding: .utf8)
                try withoutChecksums(text).replacingOccurrences(
                    of: scenario.shape.fingerprint, with: "0123456789abcdef"
                )
                .write(to: journal.url, atomically: false, encoding: .utf8)
                #expect {
                    try store.load(journal.runID)
                } throws: { error in
                    guard case .damaged(_, line: 1, let reason) = error as? JournalError else { return false }
                    return reason.contains("fingerprint")
                }
            }
        }

        @Test func aTruncatedHeaderIsNotAJournal() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: chain(["A"]))
                try journal.close()
                let bytes = try Data(contentsOf: journal.url)
                try bytes.prefix(40).write(to: journal.url)
                #expect {
                    try store.resume(journal.runID, scenario: chain(["A"]))
                } throws: { error in
                    guard case .notAJournal(let url, _) = error as? JournalError else { return false }
                    return url == journal.url
                }
            }
        }
    }
}
