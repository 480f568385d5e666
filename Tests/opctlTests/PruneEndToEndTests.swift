import Foundation
import Operations
import OperationsJournal
import Testing

/// `opctl prune`: what it removes, what it keeps, and how it says so.
struct PruneEndToEndTests {
    static let day: TimeInterval = 86_400

    /// Old runs of every kind, some with sibling files, and two recent ones.
    struct Population {
        var oldSucceeded: [RunID] = []
        var oldFailed: [RunID] = []
        var oldCancelled: [RunID] = []
        var oldInterrupted: [RunID] = []
        var recent: [RunID] = []

        init(_ sandbox: Sandbox) throws {
            let fixtures = sandbox.fixtures
            let now = Date()
            var minutes = 0.0
            func old() -> Date {
                minutes += 1
                return now.addingTimeInterval(-10 * PruneEndToEndTests.day + minutes * 60)
            }
            let siblings = ["trace.jsonl", "meta.json"]
            for _ in 0..<3 { oldSucceeded.append(try fixtures.write(.succeeded, startedAt: old(), siblings: siblings)) }
            for _ in 0..<2 { oldFailed.append(try fixtures.write(.failed, startedAt: old(), siblings: siblings)) }
            oldCancelled.append(try fixtures.write(.cancelled, startedAt: old()))
            for _ in 0..<2 {
                oldInterrupted.append(try fixtures.write(.interrupted, startedAt: old(), siblings: siblings))
            }
            recent.append(try fixtures.write(.succeeded, startedAt: now.addingTimeInterval(-3_600), siblings: siblings))
            recent.append(try fixtures.write(.failed, startedAt: now.addingTimeInterval(-1_800)))
        }

        var finished: [RunID] { oldSucceeded + oldFailed + oldCancelled }
    }

    /// The names of a run's files in the runs directory.
    private func files(of ids: [RunID], in sandbox: Sandbox) throws -> Set<String> {
        try sandbox.fixtures.fileNames().filter { name in ids.contains { name.hasPrefix("\($0).") } }
    }

    @Test func removesOldFinishedRunsWithTheirFilesAndSaysWhatItKept() throws {
        let sandbox = try Sandbox()
        let runs = try Population(sandbox)
        // A temporary a killed opctl left while saving a run's settings goes with the run.
        let leftover = ".\(runs.oldSucceeded[0]).meta.json.k3j2.tmp"
        try Data().write(to: sandbox.runsDirectory.appendingPathComponent(leftover))
        let keptFiles = try files(of: runs.oldInterrupted + runs.recent, in: sandbox)

        let result = try sandbox.run("prune", "--older-than", "7d")
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout
                == "removed 6 runs (1 cancelled, 2 failed, 3 succeeded), kept 2 interrupted runs; "
                + "use --include-interrupted to remove them\n", "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let left = try sandbox.fixtures.fileNames().subtracting(["index.cache"])
        #expect(left == keptFiles, "only the old finished runs' files go")

        let listed = try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]]
        #expect(
            Set(listed?.compactMap { $0["id"] as? String } ?? [])
                == Set((runs.oldInterrupted + runs.recent).map(\.description)))
    }

    @Test func dryRunListsWhatWouldGoAndRemovesNothing() throws {
        let sandbox = try Sandbox()
        let runs = try Population(sandbox)
        let before = try sandbox.fixtures.fileNames()
        let result = try sandbox.run("prune", "--older-than", "7d", "--dry-run", "--include-interrupted")
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("RUN ") == true, "\(result)")
        let listed = lines.dropFirst().dropLast().map { String($0.prefix { $0 != " " }) }
        #expect(listed == (runs.finished + runs.oldInterrupted).sorted().reversed().map(\.description), "\(result)")
        #expect(lines.last == "would remove 8 runs (1 cancelled, 2 failed, 2 interrupted, 3 succeeded)", "\(result)")
        #expect(try sandbox.fixtures.fileNames().subtracting(["index.cache"]) == before)
    }

    @Test func includeInterruptedAndStatusChooseWhatGoes() throws {
        let sandbox = try Sandbox()
        let runs = try Population(sandbox)
        let failedOnly = try sandbox.run("prune", "--older-than", "7d", "--status", "failed")
        #expect(failedOnly.stdout == "removed 2 runs (2 failed)\n", "\(failedOnly)")
        #expect(try files(of: runs.oldFailed, in: sandbox).isEmpty)

        let interrupted = try sandbox.run(
            "prune", "--older-than", "7d", "--include-interrupted", "--status", "interrupted", "--json")
        #expect(interrupted.status == 0, "\(interrupted)")
        let report = try #require(try parseJSON(interrupted.stdout) as? [String: Any], "\(interrupted)")
        #expect(report["dryRun"] as? Bool == false)
        let removed = try #require(report["removed"] as? [[String: Any]])
        #expect(Set(removed.compactMap { $0["id"] as? String }) == Set(runs.oldInterrupted.map(\.description)))
        #expect(removed.allSatisfy { $0["status"] as? String == "interrupted" && $0["lastActivityAt"] is String })
        #expect(report["kept"] as? [String: Int] == ["interrupted": 0, "running": 0, "damaged": 0])
        #expect(try files(of: runs.oldInterrupted, in: sandbox).isEmpty)
        #expect(try !files(of: runs.oldSucceeded + runs.recent, in: sandbox).isEmpty)
    }

    @Test func nothingOldEnoughRemovesNothingAndSaysSo() throws {
        let sandbox = try Sandbox()
        _ = try Population(sandbox)
        let before = try sandbox.fixtures.fileNames()
        let result = try sandbox.run("prune", "--older-than", "30d")
        #expect(result.status == 0, "\(result)")
        #expect(
            result.stdout.hasPrefix("nothing to remove: no cancelled, failed or succeeded run was last active before "))
        #expect(try sandbox.fixtures.fileNames().subtracting(["index.cache"]) == before.subtracting(["index.cache"]))
    }

    @Test func aRunningRunIsNeverRemoved() throws {
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", "+79991234567", "--accept-terms", "--code", "123456", "--backend",
            "sim:?latency=400",
        ])
        try process.waitForStderr(containing: "PhoneOp: attempt 1 succeeded")
        let pruned = try sandbox.run("prune", "--older-than", "0s", "--include-interrupted")
        #expect(pruned.status == 0, "\(pruned)")
        #expect(pruned.stdout.contains("kept 1 running run"), "\(pruned)")
        let finished = try process.wait()
        #expect(finished.status == 0, "\(finished)")
        let id = try #require(runID(in: finished.stderr))
        #expect(FileManager.default.fileExists(atPath: sandbox.journal(id).path))
        let listed = try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]]
        #expect(listed?.map { $0["status"] as? String } == ["succeeded"])
    }

    @Test func damagedJournalsAreKept() throws {
        let sandbox = try Sandbox()
        try sandbox.fixtures.write(.succeeded, startedAt: Date().addingTimeInterval(-10 * Self.day))
        let damaged = sandbox.journal("20250101-120000-000-1a2b3c4d")
        try Data("garbage\n".utf8).write(to: damaged)
        let result = try sandbox.run("prune", "--older-than", "1d")
        #expect(result.stdout == "removed 1 run (1 succeeded), kept 1 damaged journal\n", "\(result)")
        #expect(FileManager.default.fileExists(atPath: damaged.path))
    }

    @Test func aMissingStateDirectoryIsNotCreated() throws {
        let sandbox = try Sandbox()
        for arguments in [["prune", "--older-than", "1d"], ["runs"]] {
            let result = try sandbox.start(arguments).wait()
            #expect(result.status == 0, "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.stateDirectory.path))
    }

    @Test(arguments: [
        ([], "missing --older-than WHEN"),
        (["--older-than", "soon"], "--older-than 'soon' is not a duration"),
        (
            ["--older-than", "7d", "--status", "running"],
            "unknown status 'running' for --status; valid: succeeded, failed, cancelled, interrupted"
        ),
        (["--older-than", "7d", "--status", "damaged"], "unknown status 'damaged'"),
        (["--older-than", "7d", "--status", "interrupted"], "--status interrupted needs --include-interrupted"),
    ])
    func badArgumentsAreUsageErrors(arguments: [String], message: String) throws {
        let sandbox = try Sandbox()
        _ = try Population(sandbox)
        let before = try sandbox.fixtures.fileNames()
        let result = try sandbox.start(["prune"] + arguments).wait()
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stderr.contains("See 'opctl prune --help'."), "\(result)")
        #expect(try sandbox.fixtures.fileNames() == before)
    }
}
