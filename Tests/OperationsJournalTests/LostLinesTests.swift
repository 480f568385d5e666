import Foundation
import Operations
import OperationsTestSupport
import Testing

@testable import OperationsJournal

/// Issue 35, point 4 (contract 20): a journal knows when it lost lines. Each line says where it
/// stands and a mark beside the journal says how far it was synced, so a journal cut short, or
/// missing a line in the middle, is refused by the resume and called stranded by `check`, with
/// one reason naming the line — never resumed into an effect made again. Only a torn tail past
/// the last sync is a crash's tail. Real files on disk, as QA found them.
extension JournalTests {
    @Suite struct LostLinesTests {
        // MARK: - A checkout whose effects are counted

        /// A backend that acts once per idempotency key: what each step did, over every process.
        final class Ledger: Sendable {
            private let keys = LockedState<[String: Set<String>]>([:])
            private let launches = LockedState(0)

            init() {}

            init(copying other: Ledger) {
                keys.withLock { $0 = other.keys.withLock { $0 } }
            }

            func act(_ step: String, key: IdempotencyKey?) {
                launches.withLock { $0 += 1 }
                keys.withLock { _ = $0[step, default: []].insert(key?.rawValue ?? UUID().uuidString) }
            }

            /// The requests each step acted on: a key repeated is the same request, answered again.
            var effects: [String: Int] { keys.withLock { $0.mapValues(\.count) } }
            /// Launches since this ledger was made (or copied).
            var launchCount: Int { launches.withLock { $0 } }
        }

        /// A request with side effects: it acts on the ledger under the launch's key.
        final class ActOp: Op {
            private let name: String
            private let ledger: Ledger

            init(_ name: String, _ ledger: Ledger) {
                self.name = name
                self.ledger = ledger
            }

            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                ledger.act(name, key: context.idempotencyKey)
                Completion(retaining: self, context: context, onFinish: onFinish).succeed(context.input + 1)
            }
        }

        /// Reserve, a pure price, charge, confirm: three effects, as in QA's checkout.
        static func checkout(_ ledger: Ledger) -> Scenario<Int, Int> {
            Scenario("Checkout") { chain in
                chain.then(Step("Reserve") { ActOp("Reserve", ledger) })
                    .then(Step("Price", RecordingOps().make))
                    .then(Step("Charge") { ActOp("Charge", ledger) })
                    .then(Step("Confirm") { ActOp("Confirm", ledger) })
            }
        }

        static let everyEffectOnce = ["Reserve": 1, "Charge": 1, "Confirm": 1]

        /// A checkout that succeeded, its journal's bytes and its mark's.
        struct SucceededRun {
            let store: RunStore
            let id: RunID
            let ledger: Ledger
            let journal: [UInt8]
            let mark: [UInt8]

            var url: URL { store.url(for: id) }
            var markURL: URL { SyncMark.url(for: url) }

            /// The byte offsets just after each line's newline.
            var lineEnds: [Int] { journal.indices.filter { journal[$0] == UInt8(ascii: "\n") }.map { $0 + 1 } }

            /// Puts `bytes` in place of the journal, the mark as the run left it.
            func install(_ bytes: [UInt8]) throws {
                try Data(bytes).write(to: url)
                try Data(mark).write(to: markURL)
            }

            /// The journal's lines without their newlines.
            var lines: [[UInt8]] {
                journal.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast().map(
                    Array.init)
            }

            /// Puts `lines` in place of the journal, each with its newline.
            func install(lines: [[UInt8]]) throws {
                try install(lines.flatMap { $0 + [UInt8(ascii: "\n")] })
            }
        }

        private func succeededRun(in directory: URL, durability: ScenarioJournal.Durability) throws -> SucceededRun {
            let store = RunStore(stateDirectory: directory)
            let ledger = Ledger()
            let plan = Self.checkout(ledger)
            let journal = try store.create(scenario: plan, input: 1, durability: durability)
            #expect(run(plan, 1, environment: OpEnvironment(observer: journal))?.success == 5)
            try journal.close()
            #expect(ledger.effects == Self.everyEffectOnce)
            return SucceededRun(
                store: store, id: journal.runID, ledger: ledger, journal: Array(try Data(contentsOf: journal.url)),
                mark: Array(try Data(contentsOf: SyncMark.url(for: journal.url))))
        }

        /// What `check` and a resume say of the run as it is on disk, and, when both let it go
        /// on, what the resumed run did. Nothing is launched or written when the resume refuses.
        private enum Outcome: Equatable {
            case refused(JournalLoss)
            case resumed(effects: [String: Int])
        }

        private func checkThenResume(_ run: SucceededRun, sourceLocation: SourceLocation = #_sourceLocation) throws
            -> Outcome
        {
            let ledger = Ledger(copying: run.ledger)
            let plan = Self.checkout(ledger)
            let check = try #require(
                try run.store.checkResumable(by: [plan.shape]).first, sourceLocation: sourceLocation)
            let before = try Data(contentsOf: run.url)
            let journal: ScenarioJournal
            do {
                journal = try run.store.resume(run.id, scenario: plan)
            } catch {
                #expect(check.verdict == .stranded(ResumeCheck.reason(for: error)), sourceLocation: sourceLocation)
                #expect(ledger.launchCount == 0, "a refused resume launched", sourceLocation: sourceLocation)
                #expect(
                    try Data(contentsOf: run.url) == before, "a refused resume wrote", sourceLocation: sourceLocation)
                guard case .linesLost(run.url, let loss) = error else {
                    Issue.record("refused for another reason: \(error)", sourceLocation: sourceLocation)
                    return .resumed(effects: [:])
                }
                return .refused(loss)
            }
            #expect(check.verdict == .resumable, "\(check)", sourceLocation: sourceLocation)
            let input = try #require(try journal.resumedFrom?.input(as: Int.self), sourceLocation: sourceLocation)
            let environment = OpEnvironment(observer: journal, replay: journal.replay)
            #expect(
                OperationsTestSupport.run(plan, input, environment: environment)?.success == 5,
                sourceLocation: sourceLocation)
            try journal.close()
            return .resumed(effects: ledger.effects)
        }

        // MARK: - Truncations

        /// A durable journal is synced at each step's end and at the run's: every cut, at a
        /// line's end or in the middle of one, loses a synced line.
        @Test func aDurableJournalCutAnywhereIsRefusedNamingTheFirstLineLost() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .durable)
                let ends = run.lineEnds
                #expect(ends.count == 11)
                #expect(SyncMark.decode(run.mark)?.line == 11, "a durable run marks its last line synced")
                for kept in 0..<ends.count {
                    let start = kept == 0 ? 0 : ends[kept - 1]
                    for cut in [start, (start + ends[kept]) / 2] {
                        try run.install(Array(run.journal[..<cut]))
                        guard case .refused(let loss) = try checkThenResume(run) else {
                            Issue.record("cut at byte \(cut) (after line \(kept)) was resumed")
                            continue
                        }
                        guard case .lostTail(kept + 1, 11, _) = loss else {
                            Issue.record("cut at byte \(cut) (after line \(kept)): \(loss)")
                            continue
                        }
                    }
                }
                try run.install(Array(run.journal[..<ends[5]]))
                #expect(
                    throws: JournalError.linesLost(
                        run.url, .lostTail(first: 7, last: 11, after: "stepSucceeded of step 1.Price"))
                ) { try run.store.load(run.id) }
                #expect(
                    JournalLoss.lostTail(first: 7, last: 11, after: "stepSucceeded of step 1.Price").description
                        == "lines 7–11 are lost from its end after line 6 (stepSucceeded of step 1.Price): it had "
                        + "been synced to disk up to line 11")
            }
        }

        /// A buffered journal (opctl's) is synced only where a step with side effects launches:
        /// a cut before that line is refused; a cut past it is a crash's tail, and the resumed
        /// run repeats the last request with its key — the backend answers, nothing acts twice.
        @Test func aBufferedJournalCutBeforeItsLastSyncIsRefusedAndAfterItActsNoMore() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                let ends = run.lineEnds
                let synced = 9  // Confirm's launch
                #expect(SyncMark.decode(run.mark)?.line == synced)
                for kept in 0..<ends.count {
                    let start = kept == 0 ? 0 : ends[kept - 1]
                    for cut in [start, (start + ends[kept]) / 2] {
                        try run.install(Array(run.journal[..<cut]))
                        let outcome = try checkThenResume(run)
                        if kept < synced {
                            guard case .refused(.lostTail(kept + 1, synced, _)) = outcome else {
                                Issue.record("cut at byte \(cut) (after line \(kept)): \(outcome)")
                                continue
                            }
                        } else {
                            #expect(outcome == .resumed(effects: Self.everyEffectOnce), "cut at byte \(cut)")
                        }
                    }
                }
            }
        }

        // MARK: - A line missing in the middle

        /// Every line but the header and the last, deleted alone — QA's was line 7, Charge's
        /// launch with its key — is named, and nothing is launched.
        @Test(arguments: 2...10)
        func aLineDeletedFromTheMiddleIsRefusedNamingIt(line: Int) throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                var lines = run.lines
                lines.remove(at: line - 1)
                try run.install(lines: lines)
                let outcome = try checkThenResume(run)
                guard case .refused(.missingLines(line, line, _)) = outcome else {
                    Issue.record("\(outcome)")
                    return
                }
                if line == 7 {
                    let loss = JournalLoss.missingLines(first: 7, last: 7, after: "stepSucceeded of step 1.Price")
                    #expect(outcome == .refused(loss))
                    #expect(
                        ResumeCheck.reason(for: .linesLost(run.url, loss))
                            == "its journal has lost lines: line 7 is missing after line 6 (stepSucceeded of step "
                            + "1.Price): the line in its place says it is line 8; a rerun could repeat what they "
                            + "recorded, so none goes past them")
                }
            }
        }

        @Test func severalLinesDeletedTogetherAreNamedAsOneGap() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                var lines = run.lines
                lines.removeSubrange(3..<6)
                try run.install(lines: lines)
                #expect(
                    try checkThenResume(run)
                        == .refused(.missingLines(first: 4, last: 6, after: "stepLaunched of step 0.Reserve")))
            }
        }

        // MARK: - Bad input

        @Test func anEmptyFileIsNotAJournalUnlessItsMarkSaysItHadLines() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .durable)
                try run.install([])
                #expect(try checkThenResume(run) == .refused(.lostTail(first: 1, last: 11, after: "the start")))
                #expect(
                    JournalLoss.lostTail(first: 1, last: 11, after: "the start").description
                        == "lines 1–11 are lost: it had been synced to disk up to line 11, and not a line of it is left"
                )
                try FileManager.default.removeItem(at: run.markURL)
                #expect(throws: JournalError.notAJournal(run.url, reason: "the file is empty")) {
                    try run.store.load(run.id)
                }
            }
        }

        @Test func aHeaderAloneReadsAsARunNotStartedUnlessItsMarkSaysMore() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .durable)
                try run.install(lines: [run.lines[0]])
                #expect(try checkThenResume(run) == .refused(.lostTail(first: 2, last: 11, after: "the header")))
                try FileManager.default.removeItem(at: run.markURL)
                let record = try run.store.load(run.id)
                #expect(record.status == .interrupted && record.steps.isEmpty)
            }
        }

        /// A garbage line in the place of one is damage, as before, and keeps its place: a line
        /// lost after it is still found. A garbage line added shifts the lines after it.
        @Test func garbageInPlaceIsDamageAndGarbageAddedIsOutOfPlace() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                let garbage = Array("\u{00}\u{FF}garbage".utf8)
                var lines = run.lines
                lines[4] = garbage
                try run.install(lines: lines)
                let damaged = try run.store.loadSkippingDamage(run.id)
                #expect(damaged.damagedLines.map(\.line) == [5])
                lines.remove(at: 7)
                try run.install(lines: lines)
                #expect(
                    try checkThenResume(run)
                        == .refused(.missingLines(first: 8, last: 8, after: "stepLaunched of step 2.Charge")))

                lines = run.lines
                lines.insert(garbage, at: 4)
                try run.install(lines: lines)
                #expect(try checkThenResume(run) == .refused(.outOfPlace(line: 6, claims: 5)))
            }
        }

        @Test func aDuplicatedLineIsOutOfPlace() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                var lines = run.lines
                lines.insert(lines[6], at: 7)
                try run.install(lines: lines)
                #expect(try checkThenResume(run) == .refused(.outOfPlace(line: 8, claims: 7)))
                #expect(
                    JournalLoss.outOfPlace(line: 8, claims: 7).description
                        == "line 8 says it is line 7: a line before it is repeated, or one was added")
            }
        }

        @Test func aSequenceGoingBackwardsIsOutOfPlace() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                var lines = run.lines
                let previous = try #require(LineChecksum.intactSum(lines[4][...]))
                lines[5] = LinePosition.place(lines[5][...], at: LinePosition(sequence: 4, previous: previous))
                    .bytes.dropLast()
                try run.install(lines: lines)
                #expect(try checkThenResume(run) == .refused(.outOfPlace(line: 6, claims: 4)))
            }
        }

        @Test func twoLinesSwappedAreOutOfOrderNotMissing() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                var lines = run.lines
                lines.swapAt(6, 7)
                try run.install(lines: lines)
                #expect(try checkThenResume(run) == .refused(.outOfPlace(line: 7, claims: 8)))
                #expect(
                    JournalLoss.outOfPlace(line: 7, claims: 8).description
                        == "line 7 says it is line 8: lines are out of order")
            }
        }

        /// A line in its place that was written after another line than the one before it now:
        /// a copy of the journal that went another way from there.
        @Test func aLineThatFollowedAnotherLineBreaksTheChain() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                var lines = run.lines
                lines[6] = LinePosition.place(lines[6][...], at: LinePosition(sequence: 7, previous: 0x1234_5678))
                    .bytes.dropLast()
                try run.install(lines: lines)
                #expect(try checkThenResume(run) == .refused(.brokenChain(line: 7)))
            }
        }

        /// The last line synced replaced, in its place and in the chain, by another: only the
        /// mark knows it.
        @Test func theLastSyncedLineReplacedIsNamed() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .durable)
                var lines = run.lines
                let text = String(decoding: lines[10], as: UTF8.self)
                    .replacingOccurrences(of: #""at":1"#, with: #""at":2"#)
                let previous = try #require(LineChecksum.intactSum(lines[9][...]))
                lines[10] = LinePosition.place(
                    Array(text.utf8)[...], at: LinePosition(sequence: 11, previous: previous)
                )
                .bytes.dropLast()
                try run.install(lines: lines)
                #expect(try checkThenResume(run) == .refused(.replacedLine(line: 11)))
            }
        }

        @Test func aMarkThatDoesNotReadIsRefusedAndAnEmptyOneIsNoMark() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                var lines = run.lines
                lines.removeLast(2)
                try run.install(lines: lines)
                try Data("{\"synced\":9}\n".utf8).write(to: run.markURL)
                let name = run.markURL.lastPathComponent
                #expect(try checkThenResume(run) == .refused(.unreadableMark(name)))
                try Data().write(to: run.markURL)
                #expect(try checkThenResume(run) == .resumed(effects: Self.everyEffectOnce))
            }
        }

        // MARK: - The mark never leads

        /// A sync that fails stops the run, and the lines written after the last good sync are
        /// not marked: losing them is a crash's tail, not damage.
        @Test func aFailedSyncLeavesTheMarkAtTheLastGoodOne() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let ledger = Ledger()
                let plan = Self.checkout(ledger)
                let calls = LockedState(0)
                struct SyncFailed: Error {}
                let sync = JournalSync { _ in
                    // The first sync is the header's; the fifth, Charge's launch.
                    let call = calls.withLock { count in
                        count += 1
                        return count
                    }
                    if call >= 5 { throw SyncFailed() }
                }
                let journal = try store.create(scenario: plan, input: 1, durability: .durable(syncingWith: sync))
                #expect(run(plan, 1, environment: OpEnvironment(observer: journal))?.failure != nil)
                #expect(throws: JournalError.self) { try journal.close() }
                #expect(ledger.effects == ["Reserve": 1], "halted before Charge acted")
                let url = store.url(for: journal.runID)
                #expect(try SyncMark.read(for: url)?.line == 6)
                let bytes = Array(try Data(contentsOf: url))
                #expect(bytes.filter { $0 == UInt8(ascii: "\n") }.count == 7, "Charge's launch written, not synced")
                let end = try #require(bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }.dropLast().last)
                try Data(bytes[...end]).write(to: url)
                #expect(try store.load(journal.runID).status == .interrupted)
            }
        }

        // MARK: - Journals from before

        /// Journals without positions or a mark read as they did; one resumed by this build
        /// gets positions on its new lines, which then see a line lost anywhere before them.
        @Test(arguments: ["plain", "failed", "in-doubt", "sealed", "withheld", "damaged"])
        func anOldJournalReadsAsBeforeAndItsNewLinesSayWhereTheyStand(fixture: String) throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let source = try JournalFixtures.url(fixture)
                let bytes = try Data(contentsOf: source)
                let header = try #require(
                    try JSONSerialization.jsonObject(with: Data(bytes.prefix { $0 != UInt8(ascii: "\n") }))
                        as? [String: Any])
                let id = try RunID(validating: try #require(header["run"] as? String))
                try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
                try bytes.write(to: store.url(for: id))
                #expect(!String(decoding: bytes, as: UTF8.self).contains(#""seq":"#))

                let record = try store.loadSkippingDamage(id)
                guard record.status != .succeeded else { return }
                let resumed = try store.resume(id)
                try resumed.close()
                let lines = try journalLines(store.url(for: id))
                let old = try journalLines(source).count
                #expect(lines.count > old)
                for (offset, line) in lines.enumerated().dropFirst(old) {
                    #expect(line["seq"] as? Int == offset + 1)
                }
                #expect(try store.loadSkippingDamage(id).sessions == record.sessions + 1)

                var text = try String(contentsOf: store.url(for: id), encoding: .utf8).split(separator: "\n")
                text.remove(at: 1)
                try Data((text.joined(separator: "\n") + "\n").utf8).write(to: store.url(for: id))
                #expect(throws: JournalError.linesLost(store.url(for: id), .missingBefore(line: old, claims: old + 1)))
                {
                    try store.loadSkippingDamage(id)
                }
                #expect(
                    JournalLoss.missingBefore(line: 9, claims: 10).description
                        == "line 9 says it is line 10: a line before it is missing, among lines that do not say "
                        + "where they stand")
            }
        }

        // MARK: - A rerun from a step

        @Test func aRerunFromAStepNumbersItsCopyAnewAndMarksItsEnd() throws {
            try withTemporaryDirectory { directory in
                let run = try succeededRun(in: directory, durability: .buffered)
                let plan = Self.checkout(Ledger(copying: run.ledger))
                let newID = try run.store.rerun(run.id, from: StepAddress((2, "Charge")), scenario: plan)
                let url = run.store.url(for: newID)
                let lines = try journalLines(url)
                #expect(lines.map { $0["seq"] as? Int } == Array(1...lines.count).map { $0 })
                for (line, before) in zip(lines.dropFirst(), lines) {
                    #expect(line["prev"] as? String == before["sum"] as? String, "the copy's chain is whole")
                }
                #expect(try SyncMark.read(for: url)?.line == lines.count)
                #expect(try run.store.load(newID).rerunOf?.run == run.id)
            }
        }
    }
}
