import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// `rerun ID --from STEP` in the journal: which steps a new run replays from the old one, the
/// link in its header, and the refusals before anything is written.
extension JournalTests {
    @Suite struct RerunFromStepTests {
        typealias KeyedOps = InDoubtResumeTests.KeyedOps

        /// The ops of one scenario, kept so a test can count launches and keys across runs.
        struct Ops {
            let send = KeyedOps()
            let maybe = RecordingOps()
            let flaky: RecordingOps
            let check = RecordingOps()
            let verify = KeyedOps()
            let save: KeyedOps

            init(flaky: [Result<Int, TestError>] = [.failure(.flaky)], save: [KeyedOps.Outcome] = []) {
                self.flaky = RecordingOps(flaky)
                self.save = KeyedOps(save)
            }

            /// Send → Maybe (never runs) → Flaky (retried) → Inner(Check → Verify) → Save.
            var scenario: Scenario<Int, Int> {
                let (check, verify) = (check, verify)
                let inner = Scenario<Int, Int>("Inner") { chain in
                    chain.then(Step("Check", check.make)).then(Step("Verify", verify.makeSideEffects))
                }
                return Scenario("Outer") { chain in
                    chain.then(Step("Send", send.makeSideEffects))
                        .then(Step("Maybe", maybe.make), when: { _ in false })
                        .then(Step("Flaky", flaky.make).retrying(.transient(maxAttempts: 2, backoff: .immediate)))
                        .then(Step("Inner", purity: .pure) { inner })
                        .then(Step("Save", save.makeSideEffects))
                }
            }
        }

        /// Runs `ops`' scenario once in `store` from 10 and returns its id.
        private func firstRun(_ ops: Ops, in store: RunStore) throws -> RunID {
            let journal = try store.create(scenario: ops.scenario)
            _ = run(ops.scenario, 10, environment: OpEnvironment(observer: journal))
            try journal.close()
            return journal.runID
        }

        /// Resumes the new run `id` with `ops`' scenario and returns its result.
        private func resume(_ id: RunID, _ ops: Ops, in store: RunStore) throws -> Result<Int, any Error>? {
            let journal = try store.resume(id, scenario: ops.scenario)
            let input = try #require(try journal.resumedFrom?.input(as: Int.self))
            defer { try? journal.close() }
            return run(ops.scenario, input, environment: OpEnvironment(observer: journal, replay: journal.replay))
        }

        @Test func aNestedStepIsLaunchedAnewWithWhatFollowsAndEverythingBeforeIsReplayed() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ops = Ops()
                let old = try firstRun(ops, in: store)
                #expect(try store.load(old).status == .succeeded)
                let oldBytes = try Data(contentsOf: store.url(for: old))

                let verify = try StepSelector.address(named: "Verify", in: ops.scenario.shape)
                #expect(verify == StepAddress(path: [.init(index: 3, name: "Inner"), .init(index: 1, name: "Verify")]))
                let new = try store.rerun(old, from: verify, scenario: ops.scenario)
                #expect(new != old)
                #expect(try resume(new, ops, in: store)?.success == 15)

                // Send acted once; Flaky's retry and Check were replayed; Verify and Save are new requests.
                #expect(ops.send.keys.count == 1)
                #expect(ops.flaky.launches == [11, 11])
                #expect(ops.check.launches == [12])
                #expect(ops.maybe.launches.isEmpty)
                #expect(ops.verify.keys.count == 2 && Set(ops.verify.keys).count == 2, "Verify got a new key")
                #expect(ops.save.keys.count == 2 && Set(ops.save.keys).count == 2, "Save got a new key")

                let record = try store.load(new)
                #expect(record.status == .succeeded)
                #expect(record.rerunOf == RerunOrigin(run: old, step: verify))
                // Started when it was made, not when the old run was.
                let oldStart = try #require(try store.load(old).startedAt)
                #expect(try #require(record.startedAt) >= oldStart)
                #expect(record.damagedLines.isEmpty)
                #expect(record.step(at: StepAddress((0, "Send")))?.outcome == .replayed)
                #expect(record.step(at: StepAddress((1, "Maybe")))?.outcome == .skipped)
                #expect(record.step(at: StepAddress((2, "Flaky")))?.outcome == .replayed)
                #expect(record.step(at: StepAddress((2, "Flaky")))?.attempts.count == 2, "both attempts copied")
                #expect(record.step(at: verify)?.attempts.count == 1)
                #expect(try Data(contentsOf: store.url(for: old)) == oldBytes, "the old journal was written")
                #expect(try store.load(old).rerunOf == nil)
            }
        }

        @Test func theNewRunIsListedWithItsOriginAndAPlainRerunOfItWorksAfterItFails() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ops = Ops(save: [.succeed, .fail(InDoubtResumeTests.Refused())])
                let old = try firstRun(ops, in: store)
                let save = StepAddress((4, "Save"))
                let new = try store.rerun(old, from: save, scenario: ops.scenario)
                #expect(try resume(new, ops, in: store)?.failure != nil, "Save is refused this time")
                let summaries = try store.summaries().compactMap { try? $0.summary.get() }
                #expect(summaries.first { $0.id == new }?.rerunOf == RerunOrigin(run: old, step: save))
                #expect(summaries.first { $0.id == new }?.status == .failed)
                #expect(summaries.first { $0.id == old }?.rerunOf == nil)

                // A plain rerun of the new run repeats Save with the key of its failed attempt.
                #expect(try resume(new, ops, in: store)?.success == 15)
                #expect(ops.save.keys.count == 3 && Set(ops.save.keys).count == 2, "the new run kept its own key")
                #expect(ops.verify.keys.count == 1, "Verify, before Save, was replayed")
                let record = try store.load(new)
                #expect(record.sessions == 3 && record.rerunOf?.run == old)

                // A rerun of the rerun names the run it came from, not the first one.
                let third = try store.rerun(new, from: StepAddress((0, "Send")), scenario: ops.scenario)
                #expect(try store.load(third).rerunOf == RerunOrigin(run: new, step: StepAddress((0, "Send"))))
                #expect(try resume(third, ops, in: store)?.success == 15)
                #expect(ops.send.keys.count == 2, "Send went out again as a new request")
            }
        }

        @Test func anIndexOfVersion2IsRebuiltAndTheLinkReadFromTheJournals() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ops = Ops()
                let old = try firstRun(ops, in: store)
                let new = try store.rerun(old, from: StepAddress((0, "Send")), scenario: ops.scenario)
                _ = try store.summaries()
                // The index as a build before `rerunOf` wrote it: version 2, no links.
                let index = store.directory.appendingPathComponent("index.cache")
                let text = try String(contentsOf: index, encoding: .utf8)
                #expect(text.contains("\"version\":5"))
                try Data(text.replacingOccurrences(of: "\"version\":5", with: "\"version\":2").utf8).write(to: index)
                let summaries = try store.summaries().compactMap { try? $0.summary.get() }
                #expect(summaries.first { $0.id == new }?.rerunOf?.run == old)
                #expect(try String(contentsOf: index, encoding: .utf8).contains("\"version\":5"), "rebuilt")
            }
        }

        @Test func aStepTheOldRunNeverReachedIsRefusedBeforeAnythingIsWritten() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ops = Ops(flaky: [.failure(.broken)])
                let old = try firstRun(ops, in: store)
                #expect(try store.load(old).status == .failed)
                let before = try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted()
                #expect {
                    try store.rerun(old, from: StepAddress((4, "Save")), scenario: ops.scenario)
                } throws: { error in
                    guard case .stepNotReached(let name, let run, let reached) = error as? RerunFromError else {
                        return false
                    }
                    return name == "Save" && run == old && reached == ["Send", "Maybe", "Flaky"]
                }
                #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory.path).sorted() == before)
                // The step that failed is one it reached.
                let new = try store.rerun(old, from: StepAddress((2, "Flaky")), scenario: ops.scenario)
                #expect(try resume(new, ops, in: store)?.success == 15)
                #expect(ops.send.keys.count == 1)
            }
        }

        @Test func anUnknownRunOrAnotherShapeIsRefused() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ops = Ops()
                let old = try firstRun(ops, in: store)
                let other = Scenario<Int, Int>("Outer") { $0.then(Step("Elsewhere", RecordingOps().make)) }
                #expect {
                    try store.rerun(old, from: StepAddress((0, "Send")), scenario: other)
                } throws: { error in
                    guard case .journal(.shapeMismatch) = error as? RerunFromError else { return false }
                    return true
                }
                let missing = RunID.make()
                #expect {
                    try store.rerun(missing, from: StepAddress((0, "Send")), scenario: ops.scenario)
                } throws: { error in
                    guard case .journal(.unknownRun(let id, _)) = error as? RerunFromError else { return false }
                    return id == missing
                }
            }
        }

        @Test func aStepIsNamedByItsNameOrAPathWhenTheNameIsShared() throws {
            let inner = Scenario<Int, Int>("Inner") { $0.then(Step("Check", RecordingOps().make)) }
            let shape = Scenario<Int, Int>("Outer") { chain in
                chain.then(Step("Check", RecordingOps().make)).then(Step("Inner", purity: .pure) { inner })
            }.shape
            #expect {
                try StepSelector.address(named: "Check", in: shape)
            } throws: { error in
                guard case .ambiguousStep(_, let candidates) = error as? RerunFromError else { return false }
                return candidates == ["/Check", "Inner/Check"]
            }
            #expect(try StepSelector.address(named: "Inner/Check", in: shape).path.map(\.index) == [1, 0])
            #expect(try StepSelector.address(named: "/Check", in: shape) == StepAddress((0, "Check")))
            #expect(
                try StepSelector.address(named: "1.Inner/0.Check", in: shape) == StepAddress((1, "Inner"), (0, "Check"))
            )
            #expect {
                try StepSelector.address(named: "Nope", in: shape)
            } throws: { error in
                guard case .unknownStep(_, let choices) = error as? RerunFromError else { return false }
                return choices == ["/Check", "Inner", "Inner/Check"]
            }
            let message = RerunFromError.unknownStep("Nope", choices: ["Check", "Inner"]).description
            #expect(message == "the run has no step 'Nope'; its steps are: Check, Inner")
        }
    }
}
