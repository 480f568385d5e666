import Foundation
import Testing

/// `--json` output parses and carries the keys scripts rely on.
struct JSONOutputEndToEndTests {
    static let phone = "+7 999 123-45-67"

    @Test func runRunsAndShowPrintRunObjectsWithTheRequiredKeys() throws {
        let sandbox = try Sandbox()
        let succeeded = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--json")
        #expect(succeeded.status == 0, "\(succeeded)")
        let success = try #require(try parseJSON(succeeded.stdout) as? [String: Any], "\(succeeded)")
        try expectRunObject(success, status: "succeeded")
        #expect(success["failedStep"] is NSNull)
        #expect((success["token"] as? String)?.contains("…") == true)

        let failedRun = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "000000", "--json")
        #expect(failedRun.status == 1, "\(failedRun)")
        let failure = try #require(try parseJSON(failedRun.stdout) as? [String: Any], "\(failedRun)")
        try expectRunObject(failure, status: "failed")
        #expect(failure["failedStep"] as? String == "CodeOp")
        let failedID = try #require(failure["id"] as? String)
        #expect((failure["rerun"] as? String)?.hasPrefix("opctl rerun \(failedID)") == true)

        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        #expect(runs.count == 2)
        for run in runs { try expectRunObject(run) }
        // Newest first, like the table.
        #expect(runs.map { $0["status"] as? String } == ["failed", "succeeded"])
        #expect(runs.map { $0["failedStep"] as? String } == ["CodeOp", nil])

        let shown = try sandbox.run("show", failedID, "--json")
        #expect(shown.status == 0, "\(shown)")
        let show = try #require(try parseJSON(shown.stdout) as? [String: Any], "\(shown)")
        try expectRunObject(show, status: "failed")
        let steps = try #require(show["steps"] as? [[String: Any]])
        #expect(
            steps.map { $0["step"] as? String } == [
                "PhoneOp", "VerificationScenario", "PhoneOp", "TermsOfUseOp", "CodeOp",
            ])
        // The nested steps are told apart by their addresses.
        #expect(Set(steps.compactMap { $0["address"] as? String }).count == steps.count)

        let rerun = try sandbox.run("rerun", failedID, "--code", "123456", "--json")
        #expect(rerun.status == 0, "\(rerun)")
        let resumed = try #require(try parseJSON(rerun.stdout) as? [String: Any], "\(rerun)")
        try expectRunObject(resumed, status: "succeeded")
        #expect(resumed["id"] as? String == failedID)
        #expect(resumed["startedAt"] as? String == show["startedAt"] as? String, "a rerun keeps the run's start")

        let nothingToDo = try sandbox.run("rerun", failedID, "--json")
        let done = try #require(try parseJSON(nothingToDo.stdout) as? [String: Any], "\(nothingToDo)")
        try expectRunObject(done, status: "succeeded")
    }

    @Test func emptyStateDirectoryListsAnEmptyArray() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("runs", "--json")
        #expect(result.status == 0, "\(result)")
        #expect(try parseJSON(result.stdout) as? [Any] != nil, "\(result)")
        #expect((try parseJSON(result.stdout) as? [Any])?.isEmpty == true)
    }

    private func expectRunObject(
        _ object: [String: Any], status: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let missing = requiredRunKeys.subtracting(object.keys)
        #expect(missing.isEmpty, "missing \(missing.sorted()) in \(object)", sourceLocation: sourceLocation)
        let actual = try #require(object["status"] as? String, sourceLocation: sourceLocation)
        #expect(runStatuses.contains(actual), "status \(actual)", sourceLocation: sourceLocation)
        if let status { #expect(actual == status, sourceLocation: sourceLocation) }
        #expect(object["scenario"] as? String == "auth", sourceLocation: sourceLocation)
        let startedAt = try #require(object["startedAt"] as? String, sourceLocation: sourceLocation)
        #expect(
            (try? Date(startedAt, strategy: .iso8601)) != nil, "startedAt \(startedAt)", sourceLocation: sourceLocation)
        #expect(object["failedStep"] is String || object["failedStep"] is NSNull, sourceLocation: sourceLocation)
        // One name for the run's id (issue 28: `run --json` gave it as `id` and again as `runId`).
        #expect(object["runId"] == nil, "runId repeats id in \(object)", sourceLocation: sourceLocation)
    }
}
