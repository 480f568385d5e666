import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import Testing

@testable import opctl

/// Issue 35, point 4, through the commands: a journal cut before the line it last synced is
/// named by `check`, listed as damaged, and refused by `rerun` with the sentence `check` gave —
/// nothing launched, nothing written.
@Suite(.serialized)
struct LostLinesCheckRerunTests {
    @Test func aJournalCutBeforeItsLastSyncIsStrandedAndRefusedWithOneReason() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opctl-lost-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let opctl = InProcessOpctl(stateDirectory: directory)
        let failed = opctl.run("run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "000000")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        let journal = RunStore(stateDirectory: directory).url(for: try RunID(validating: id))
        let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        try Data((lines.prefix(3).joined(separator: "\n") + "\n").utf8).write(to: journal)
        let cut = try Data(contentsOf: journal)

        let check = opctl.run("check", "--json")
        #expect(check.status == 1, "\(check)")
        let objects = try #require(try parseJSON(check.stdout) as? [[String: Any]], "\(check)")
        let reason = try #require(objects.first { $0["id"] as? String == id }?["reason"] as? String, "\(check)")
        #expect(
            reason
                == "its journal has lost lines: lines 4–9 are lost from its end after line 3 (stepLaunched of "
                + "step 0.PhoneOp): it had been synced to disk up to line 9; a rerun could repeat what they "
                + "recorded, so none goes past them")

        let rerun = opctl.run("rerun", id, "--code", "123456")
        #expect(rerun.status != 0, "\(rerun)")
        #expect(rerun.stderr.contains("cannot resume run \(id): \(reason)"), "\(rerun)")
        #expect(!rerun.stderr.contains(": attempt"), "a refused rerun launched a step:\n\(rerun.stderr)")
        #expect(try Data(contentsOf: journal) == cut, "a refused rerun wrote")

        let runs = opctl.run("runs")
        let row = try #require(runs.stdout.split(separator: "\n").first { $0.hasPrefix(id) }, "\(runs)")
        #expect(row.contains("damaged"), "\(runs)")
    }
}
