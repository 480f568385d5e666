import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import Testing

/// Issue 35, point 4, through the commands: a journal cut before the line it last synced is
/// named by `check`, listed as damaged, and refused by `rerun` with the sentence `check` gave —
/// nothing launched, nothing written.
@Suite(.serialized)
struct LostLinesCheckRerunTests {
    @Test func aJournalCutBeforeItsLastSyncIsStrandedAndRefusedWithOneReason() throws {
        let directory = temporaryStateDirectory("runner-lost")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chores = InProcessRunner<Chores>(stateDirectory: directory)
        let failed = chores.run("run", "tidy", "--fail")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        let journal = RunStore(stateDirectory: directory).url(for: try RunID(validating: id))
        let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        try Data((lines.prefix(3).joined(separator: "\n") + "\n").utf8).write(to: journal)
        let cut = try Data(contentsOf: journal)

        let check = chores.run("check", "--json")
        #expect(check.status == 1, "\(check)")
        let objects = try #require(try parseJSON(check.stdout) as? [[String: Any]], "\(check)")
        let reason = try #require(objects.first { $0["id"] as? String == id }?["reason"] as? String, "\(check)")
        #expect(
            reason
                == "its journal has lost lines: lines 4–5 are lost from its end after line 3 (stepLaunched of "
                + "step 0.Sweep): it had been synced to disk up to line 5; a rerun could repeat what they "
                + "recorded, so none goes past them")

        let rerun = chores.run("rerun", id)
        #expect(rerun.status != 0, "\(rerun)")
        #expect(rerun.stderr.contains("cannot resume run \(id): \(reason)"), "\(rerun)")
        #expect(!rerun.stderr.contains(": attempt"), "a refused rerun launched a step:\n\(rerun.stderr)")
        #expect(try Data(contentsOf: journal) == cut, "a refused rerun wrote")

        let runs = chores.run("runs")
        let row = try #require(runs.stdout.split(separator: "\n").first { $0.hasPrefix(id) }, "\(runs)")
        #expect(row.contains("damaged"), "\(runs)")
    }
}
