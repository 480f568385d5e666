import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A journal holds no file lock while its run is parked (a screen, a wait, a poll) — iOS kills an
/// app suspended while it holds one in a shared container (`0xdead10cc`) — and still no second
/// writer gets the run: the run takes its lock back when it goes on, and stops rather than write
/// after another process took the run meanwhile.
extension JournalTests {
    @Suite struct ParkedRunLockTests {
        /// Asks a person for a number through a ``ScreenPrompt``; the test answers.
        final class Asking: Sendable {
            let prompts = LockedState<[ScreenPrompt<Int>]>([])
            let opened = DispatchSemaphore(value: 0)

            func make() -> AskOp { AskOp(source: self) }

            /// The open prompt, once the run has asked.
            func prompt() throws -> ScreenPrompt<Int> {
                #expect(opened.wait(timeout: .now() + 30) == .success, "the run never asked")
                return try #require(prompts.withLock { $0.last })
            }
        }

        final class AskOp: PureOp {
            let source: Asking

            init(source: Asking) {
                self.source = source
            }

            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                let completion = Completion(retaining: self, context: context, onFinish: onFinish)
                let prompt = ScreenPrompt<Int>(for: context, deliverOn: nil) { completion.finish($0) }
                source.prompts.withLock { $0.append(prompt) }
                source.opened.signal()
            }
        }

        static func scenario(_ asking: Asking) -> Scenario<Int, Int> {
            Scenario("Asking") { chain in
                chain.then(Step("Load", RecordingOps().make)).then(Step("Ask", asking.make))
                    .then(Step("Save", RecordingOps().make))
            }
        }

        /// Whether some open file holds a `flock` on the file at `url`.
        static func isLocked(_ url: URL) -> Bool {
            let descriptor = open(url.path, O_RDONLY)
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return true }
            flock(descriptor, LOCK_UN)
            return false
        }

        /// A run of ``scenario(_:)`` journaled in a new store in `directory`, launched and parked
        /// on its screen: the store, its journal, where it finishes, and the screen's prompt.
        static func parkedOnAScreen(in directory: URL) throws -> (
            RunStore, ScenarioJournal, FinishBox<Int>, ScreenPrompt<Int>
        ) {
            let store = RunStore(stateDirectory: directory)
            let journal = try store.create(scenario: "Asking")
            let asking = Asking()
            let box = FinishBox<Int>()
            Self.scenario(asking).launch(
                OpContext(1, environment: OpEnvironment(observer: journal)), onFinish: box.onFinish)
            return (store, journal, box, try asking.prompt())
        }

        @Test func aRunOnAScreenHoldsNoLockAndNobodyElseWritesIt() throws {
            try withTemporaryDirectory { directory in
                let (store, journal, box, prompt) = try Self.parkedOnAScreen(in: directory)

                #expect(!Self.isLocked(journal.url), "the lock is held while the run waits for a person")
                #expect(throws: JournalError.runInProgress(journal.url)) { _ = try store.resume(journal.runID) }
                #expect(try store.load(journal.runID).status == .running, "a parked run is still running")

                prompt.answer(41)
                #expect(box.wait()?.success == 42)
                #expect(Self.isLocked(journal.url), "the run took its lock back when it went on")
                try journal.close()
                #expect(try store.load(journal.runID).status == .succeeded)
                #expect(!FileManager.default.fileExists(atPath: journal.url.path + ".parked"))
            }
        }

        @Test func aRunTakenOverWhileParkedStopsWithoutWriting() throws {
            try withTemporaryDirectory { directory in
                let (store, journal, box, prompt) = try Self.parkedOnAScreen(in: directory)

                // Another process that did not see the mark (gone, unreadable) takes the run.
                try FileManager.default.removeItem(atPath: journal.url.path + ".parked")
                let other = try store.resume(journal.runID)
                try other.close()
                let theirs = try Data(contentsOf: journal.url)

                prompt.answer(41)
                let failure = try #require(box.wait()?.failure as? StepFailure)
                let halted = try #require(failure.rootCause as? RunHalted)
                #expect("\(halted)".contains("taken over by another process"), "\(halted)")
                #expect(throws: JournalError.runTakenOver(journal.url)) { try journal.close() }
                #expect(try Data(contentsOf: journal.url) == theirs, "the parked run wrote after the takeover")
            }
        }

        /// The mark is kept in one file for the journal's life, written in place at each park and
        /// blanked at each going on: a run parked twice is refused to a second writer both times,
        /// marks nobody while it runs (a process killed then leaves no live-looking mark) and
        /// leaves no file when it closes.
        @Test func aRunParkedTwiceIsMarkedEachTimeAndMarksNobodyInBetween() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "AskingTwice")
                let asking = Asking()
                let box = FinishBox<Int>()
                let scenario = Scenario<Int, Int>("AskingTwice") { chain in
                    chain.then(Step("First", asking.make)).then(Step("Second", asking.make))
                }
                scenario.launch(OpContext(1, environment: OpEnvironment(observer: journal)), onFinish: box.onFinish)
                let markPath = journal.url.path + ".parked"

                let first = try asking.prompt()
                #expect(throws: JournalError.runInProgress(journal.url)) { _ = try store.resume(journal.runID) }
                first.answer(10)
                let second = try asking.prompt()
                #expect(!Self.isLocked(journal.url), "the lock is held on the second screen")
                #expect(throws: JournalError.runInProgress(journal.url)) { _ = try store.resume(journal.runID) }
                second.answer(20)
                #expect(box.wait()?.success == 20)
                #expect(Self.isLocked(journal.url))
                let left = try String(contentsOfFile: markPath, encoding: .utf8)
                #expect(
                    left.allSatisfy { $0 == " " || $0 == "\n" }, "a run that went on still marks itself parked: \(left)"
                )
                try journal.close()
                #expect(!FileManager.default.fileExists(atPath: markPath))
            }
        }

        @Test func aRunInAWaitHoldsNoLockAndTakesItBack() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Pause")
                let scheduler = TestScheduler()
                let scenario = Scenario<Int, Int>("Pause") { chain in
                    chain.wait("Pause", for: .seconds(30)).then(Step("Work", RecordingOps().make))
                }
                let box = FinishBox<Int>()
                scenario.launch(
                    OpContext(1, environment: OpEnvironment(scheduler: scheduler, observer: journal)),
                    onFinish: box.onFinish)

                #expect(box.count == 0)
                #expect(!Self.isLocked(journal.url), "the lock is held during the wait")
                #expect(throws: JournalError.runInProgress(journal.url)) { _ = try store.resume(journal.runID) }

                scheduler.advance(by: .seconds(30))
                #expect(box.wait()?.success == 2)
                #expect(Self.isLocked(journal.url))
                try journal.close()
                #expect(try store.load(journal.runID).status == .succeeded)
            }
        }
    }
}
