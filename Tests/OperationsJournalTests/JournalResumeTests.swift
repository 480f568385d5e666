import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

extension JournalTests {
    @Suite struct JournalResumeTests {
        /// First → Second → Third, each adding 1 unless its script says otherwise.
        /// A run of one step that waits on `parked`, launched and flushed: live, its writer
        /// holding the lock until the test finishes the step and closes the journal.
        private func launchLiveRun(in store: RunStore) throws -> (ScenarioJournal, ParkedCompletion) {
            let parked = ParkedCompletion()
            let scenario = Scenario<Int, Int>("Live") { chain in
                chain.then(Step("Waiting") { ManualOp(handOver: parked.park) })
            }
            let journal = try store.create(scenario: "Live")
            scenario.launch(OpContext(1, environment: OpEnvironment(observer: journal))) { _ in }
            try journal.flush()
            return (journal, parked)
        }

        private func threeSteps(_ first: RecordingOps, _ second: RecordingOps, _ third: RecordingOps)
            -> Scenario<Int, Int>
        {
            Scenario("Three") { chain in
                chain.then(Step("First", first.make)).then(Step("Second", second.make)).then(Step("Third", third.make))
            }
        }

        @Test func resumingReplaysCompletedStepsAndRelaunchesTheFailedOneWithTheSameInput() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let first = RecordingOps()
                let second = RecordingOps([.failure(.broken)])
                let third = RecordingOps()
                let journal = try store.create(scenario: "Three")
                let failure = try #require(
                    run(threeSteps(first, second, third), 10, environment: OpEnvironment(observer: journal))?.failure
                        as? StepFailure)
                #expect(failure.step == "Second")
                try journal.close()

                let failed = try store.load(journal.runID)
                #expect(failed.status == .failed)
                #expect(failed.failedStep == StepAddress((1, "Second")))
                #expect(failed.error?.stepPath == ["Second"])
                #expect(failed.error?.type == "TestError")
                #expect(failed.error?.isTransient == false)

                // A second launch, perhaps another process, resumes from the journal.
                let resumed = try store.resume(journal.runID)
                #expect(resumed.resumedFrom?.status == .failed)
                let input = try #require(try resumed.resumedFrom?.input(as: Int.self))
                let recorder = ScenarioRecorder()
                let environment = OpEnvironment(observer: ObserverGroup([resumed, recorder]), replay: resumed.replay)
                #expect(run(threeSteps(first, second, third), input, environment: environment)?.success == 13)
                try resumed.close()

                #expect(first.launches == [10])
                #expect(second.launches == [11, 11])
                #expect(third.launches == [12])
                #expect(
                    recorder.stepLines == [
                        "First replayed", "Second launched #1", "Second succeeded #1", "Third launched #1",
                        "Third succeeded #1",
                    ])

                let record = try store.load(journal.runID)
                #expect(record.status == .succeeded)
                #expect(record.sessions == 2)
                #expect(record.failedStep == nil)
                #expect(record.steps.map(\.outcome) == [.replayed, .succeeded, .succeeded])
                let attempts = try #require(record.step(at: StepAddress((1, "Second")))?.attempts)
                #expect(attempts.map(\.session) == [1, 2])
                #expect(
                    attempts.map(\.outcome) == [.failed(RecordedError(TestError.broken), willRetry: false), .succeeded])
                #expect(try eventNames(in: journal.url).filter { $0 == "resumed" }.count == 1)
            }
        }

        @Test func aJournalCutOffMidLineResumesFromWhatIsIntact() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let first = RecordingOps()
                let parked = ParkedCompletion()
                let scenario = Scenario<Int, Int>("Killed") { chain in
                    chain.then(Step("First", first.make))
                        .then(Step("Second") { ManualOp(handOver: parked.park) })
                }
                let journal = try store.create(scenario: "Killed")
                scenario.launch(OpContext(1, environment: OpEnvironment(observer: journal))) { _ in }
                try journal.flush()

                // What a process killed in the middle of a write leaves: the journal so far and
                // half a line, no end event and no lock.
                let killed = store.url(for: .make())
                var bytes = try Data(contentsOf: journal.url)
                bytes.append(Data(#"{"event":"stepSucceeded","at":17356"#.utf8))
                try bytes.write(to: killed)

                let record = try ScenarioJournal.load(killed)
                #expect(record.ignoredTornLine)
                #expect(record.status == .interrupted)
                #expect(record.failedStep == StepAddress((1, "Second")))
                #expect(record.steps.map(\.outcome) == [.succeeded, .interrupted])
                #expect(record.steps.last?.attempts.map(\.outcome) == [.interrupted])

                let resumed = try ScenarioJournal.resume(at: killed)
                let second = RecordingOps()
                let again = Scenario<Int, Int>("Killed") { chain in
                    chain.then(Step("First", first.make)).then(Step("Second", second.make))
                }
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(again, 1, environment: environment)?.success == 3)
                try resumed.close()
                #expect(first.launches == [1])
                #expect(second.launches == [2])

                // The torn bytes were cut before appending, so the journal reads cleanly.
                let after = try ScenarioJournal.load(killed)
                #expect(!after.ignoredTornLine)
                #expect(after.status == .succeeded)
                #expect(after.steps.last?.attempts.map(\.outcome) == [.interrupted, .succeeded])

                parked.finish(with: 0)
                try journal.close()
            }
        }

        @Test func aFinishedJournalCutAnywhereInItsLastLineStillResumes() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Three")
                let ops = (RecordingOps(), RecordingOps([.failure(.broken)]), RecordingOps())
                _ = run(threeSteps(ops.0, ops.1, ops.2), 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                let bytes = try Data(contentsOf: journal.url)
                let lastLineStart = try #require(bytes.dropLast().lastIndex(of: UInt8(ascii: "\n"))) + 1
                for cut in lastLineStart + 1..<bytes.count {
                    let url = directory.appendingPathComponent("cut-\(cut).jsonl")
                    try bytes.prefix(cut).write(to: url)
                    let record = try ScenarioJournal.load(url)
                    #expect(record.ignoredTornLine)
                    #expect(record.status == .interrupted)
                    #expect(try JournalReplay(record).recordedOutput(at: StepAddress((0, "First")), as: Int.self) == 2)
                    #expect(
                        try JournalReplay(record).recordedOutput(at: StepAddress((1, "Second")), as: Int.self) == nil)
                }
            }
        }

        @Test func aLiveRunCannotBeResumedAndReadsAsRunning() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (journal, parked) = try launchLiveRun(in: store)

                let live = try store.load(journal.runID)
                #expect(live.status == .running)
                #expect(live.failedStep == StepAddress((0, "Waiting")))
                #expect(live.steps.first?.attempts.map(\.outcome) == [.running])
                #expect(throws: JournalError.runInProgress(journal.url)) { try store.resume(journal.runID) }

                parked.finish(with: 5)
                try journal.close()
                #expect(try store.load(journal.runID).status == .succeeded)
            }
        }

        /// A process that forks holds a copy of every open file, and with it the journal's lock,
        /// until the child execs. A run closed and resumed at once while another thread starts a
        /// process must not read as another writer's.
        @Test func aLockLetGoOfWithinTheGraceIsWaitedOut() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Forked")
                try journal.close()
                // A second open file holding the lock stands for the child's copy.
                let copy = open(journal.url.path, O_RDONLY | O_CLOEXEC)
                #expect(copy >= 0 && flock(copy, LOCK_EX | LOCK_NB) == 0)
                // A thread of its own: Dispatch's pool can be busy with other tests for a second.
                Thread.detachNewThread {
                    usleep(10_000)
                    _ = close(copy)
                }
                let resumed = try store.resume(journal.runID)
                try resumed.close()
            }
        }

        /// A resume that read the run as running and waited for its lock must not go on once
        /// the writer has finished it meanwhile: under the lock the run has succeeded, and
        /// nothing more is launched or written.
        @Test func aRunThatSucceedsWhileAResumeWaitsIsNotResumed() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (journal, parked) = try launchLiveRun(in: store)
                #expect(try store.load(journal.runID).status == .running)
                // The writer finishes while the resume (below) waits for its lock.
                Thread.detachNewThread {
                    usleep(10_000)
                    parked.finish(with: 5)
                    try? journal.close()
                }
                #expect(throws: JournalError.alreadySucceeded(journal.url)) { try store.resume(journal.runID) }
                let record = try store.load(journal.runID)
                #expect(record.status == .succeeded)
                #expect(record.sessions == 1, "nothing was written by the resume")
            }
        }

        @Test func closingARunInFlightRecordsItAsInterrupted() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let scenario = Scenario<Int, Int>("Stuck") { chain in chain.then(Step("Stuck") { StuckOp() }) }
                let journal = try store.create(scenario: "Stuck")
                scenario.launch(OpContext(1, environment: OpEnvironment(observer: journal))) { _ in }
                try journal.close()
                let record = try store.load(journal.runID)
                #expect(record.status == .interrupted)
                #expect(record.failedStep == StepAddress((0, "Stuck")))
                #expect(try eventNames(in: journal.url).last == "runFinished")
            }
        }

        @Test(arguments: [false, true])
        func aCancelledRunIsCancelledUnlessTheHostNotedAnInterruption(noted: Bool) throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let done = RecordingOps()
                let scenario = Scenario<Int, Int>("Cancel") { chain in
                    chain.then(Step("Done", done.make)).then(Step("Waiting") { StuckOp() })
                }
                let token = CancellationToken()
                let journal = try store.create(scenario: "Cancel")
                let box = FinishBox<Int>()
                scenario.launch(
                    OpContext(1, cancellation: token, environment: OpEnvironment(observer: journal)),
                    onFinish: box.onFinish)
                if noted { journal.noteInterruption() }
                token.cancel()
                #expect(box.wait()?.failure?.isCancellation == true)
                try journal.close()

                let record = try store.load(journal.runID)
                #expect(record.status == (noted ? .interrupted : .cancelled))
                #expect(record.failedStep == StepAddress((1, "Waiting")))
                #expect(record.error?.isCancellation == true)
                #expect(record.steps.map(\.outcome) == [.succeeded, .cancelled])
            }
        }

        @Test func aRunResumedTwiceStillReplaysWhatTheFirstProcessCompleted() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let first = RecordingOps()
                let second = RecordingOps([.failure(.broken), .failure(.broken)])
                let third = RecordingOps()
                let journal = try store.create(scenario: "Three")
                _ = run(threeSteps(first, second, third), 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                for expectedSessions in [2, 3] {
                    let resumed = try store.resume(journal.runID)
                    _ = run(
                        threeSteps(first, second, third), 1,
                        environment: OpEnvironment(observer: resumed, replay: resumed.replay))
                    try resumed.close()
                    #expect(try store.load(journal.runID).sessions == expectedSessions)
                }
                #expect(first.launches == [1])
                #expect(second.launches == [2, 2, 2])
                #expect(third.launches == [3])
                #expect(try store.load(journal.runID).status == .succeeded)
            }
        }

        @Test func nestedStepsResumeInsideTheNestedScenario() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let inner1 = RecordingOps()
                let inner2 = RecordingOps([.failure(.broken)])
                func outer() -> Scenario<Int, Int> {
                    let inner = Scenario<Int, Int>("Inner") { chain in
                        chain.then(Step("A", inner1.make)).then(Step("B", inner2.make))
                    }
                    return Scenario("Outer") { chain in chain.then(Step("Inner", purity: .pure) { inner }) }
                }
                let journal = try store.create(scenario: "Outer")
                _ = run(outer(), 1, environment: OpEnvironment(observer: journal))
                try journal.close()
                let failed = try store.load(journal.runID)
                #expect(failed.failedStep == StepAddress((0, "Inner"), (1, "B")))

                let resumed = try store.resume(journal.runID)
                #expect(
                    run(outer(), 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))?.success == 3
                )
                try resumed.close()
                #expect(inner1.launches == [1])
                #expect(inner2.launches == [2, 2])
            }
        }
    }
}
