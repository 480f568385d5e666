import Foundation
import OperationsRunner
import Testing

/// `--json` output of `run`, `runs`, `show` and `rerun` parses and carries the keys scripts rely
/// on, whatever the program runs. (opctl's over its built binary: JSONOutputEndToEndTests.)
struct JSONOutputTests {
    /// The keys every run object of `runs --json`, `show --json` and `run --json` carries.
    static let requiredRunKeys: Set<String> = ["id", "scenario", "status", "failedStep", "startedAt"]

    /// The statuses a run object may have.
    static let runStatuses: Set<String> = ["succeeded", "failed", "cancelled", "interrupted", "running"]

    @Test func runRunsAndShowPrintRunObjectsWithTheRequiredKeys() throws {
        let directory = temporaryStateDirectory("runner-json")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chores = InProcessRunner<Chores>(stateDirectory: directory)
        let succeeded = chores.run("run", "tidy", "--json")
        #expect(succeeded.status == 0, "\(succeeded)")
        let success = try #require(try parseJSON(succeeded.stdout) as? [String: Any], "\(succeeded)")
        try expectRunObject(success, status: "succeeded")
        #expect(success["failedStep"] is NSNull)

        let failedRun = chores.run("run", "tidy", "--fail", "--json")
        #expect(failedRun.status == 1, "\(failedRun)")
        let failure = try #require(try parseJSON(failedRun.stdout) as? [String: Any], "\(failedRun)")
        try expectRunObject(failure, status: "failed")
        #expect(failure["failedStep"] as? String == "Polish")
        let failedID = try #require(failure["id"] as? String)
        #expect((failure["rerun"] as? String)?.hasPrefix("chores rerun \(failedID)") == true, "\(failure)")

        let listing = chores.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        #expect(runs.count == 2)
        for run in runs { try expectRunObject(run) }
        // Newest first, like the table.
        #expect(runs.map { $0["status"] as? String } == ["failed", "succeeded"])
        #expect(runs.map { $0["failedStep"] as? String } == ["Polish", nil])

        let shown = chores.run("show", failedID, "--json")
        #expect(shown.status == 0, "\(shown)")
        let show = try #require(try parseJSON(shown.stdout) as? [String: Any], "\(shown)")
        try expectRunObject(show, status: "failed")
        let steps = try #require(show["steps"] as? [[String: Any]])
        #expect(steps.map { $0["step"] as? String } == ["Sweep", "Dust", "Polish"])
        #expect(Set(steps.compactMap { $0["address"] as? String }).count == steps.count)

        let rerun = chores.run("rerun", failedID, "--json")
        #expect(rerun.status == 0, "\(rerun)")
        let resumed = try #require(try parseJSON(rerun.stdout) as? [String: Any], "\(rerun)")
        try expectRunObject(resumed, status: "succeeded")
        #expect(resumed["id"] as? String == failedID)
        #expect(resumed["startedAt"] as? String == show["startedAt"] as? String, "a rerun keeps the run's start")

        let nothingToDo = chores.run("rerun", failedID, "--json")
        let done = try #require(try parseJSON(nothingToDo.stdout) as? [String: Any], "\(nothingToDo)")
        try expectRunObject(done, status: "succeeded")
    }

    @Test func emptyStateDirectoryListsAnEmptyArray() throws {
        let directory = temporaryStateDirectory("runner-json-empty")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = InProcessRunner<Chores>(stateDirectory: directory).run("runs", "--json")
        #expect(result.status == 0, "\(result)")
        #expect((try parseJSON(result.stdout) as? [Any])?.isEmpty == true, "\(result)")
    }

    private func expectRunObject(
        _ object: [String: Any], status: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let missing = Self.requiredRunKeys.subtracting(object.keys)
        #expect(missing.isEmpty, "missing \(missing.sorted()) in \(object)", sourceLocation: sourceLocation)
        let actual = try #require(object["status"] as? String, sourceLocation: sourceLocation)
        #expect(Self.runStatuses.contains(actual), "status \(actual)", sourceLocation: sourceLocation)
        if let status { #expect(actual == status, sourceLocation: sourceLocation) }
        #expect(object["scenario"] as? String == "Tidy", sourceLocation: sourceLocation)
        let startedAt = try #require(object["startedAt"] as? String, sourceLocation: sourceLocation)
        #expect(
            (try? Date(startedAt, strategy: .iso8601)) != nil, "startedAt \(startedAt)", sourceLocation: sourceLocation)
        #expect(object["failedStep"] is String || object["failedStep"] is NSNull, sourceLocation: sourceLocation)
        #expect(object["runId"] == nil, "runId repeats id in \(object)", sourceLocation: sourceLocation)
    }
}
