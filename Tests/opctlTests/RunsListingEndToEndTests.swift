import Foundation
import Operations
import OperationsJournal
import Testing

/// `opctl runs` with many runs: order, limit, filters, and the summary index behind it.
struct RunsListingEndToEndTests {
    static let hour: TimeInterval = 3_600

    /// `count` succeeded runs an hour apart, the newest an hour ago; ids oldest first.
    private func succeededRuns(_ count: Int, in sandbox: Sandbox) throws -> [RunID] {
        let now = Date()
        return try (0..<count).map { index in
            try sandbox.fixtures.write(
                .succeeded, startedAt: now.addingTimeInterval(-Double(count - index) * Self.hour))
        }
    }

    /// The run ids of a table, top to bottom.
    private func tableIDs(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != " " }) }
    }

    private func jsonRuns(_ result: OpctlResult) throws -> [[String: Any]] {
        try #require(try parseJSON(result.stdout) as? [[String: Any]], "\(result)")
    }

    @Test func newestFirstShowingAScreenfulAndSayingHowManyAreLeftOut() throws {
        let sandbox = try Sandbox()
        let ids = try succeededRuns(25, in: sandbox)
        let result = try sandbox.run("runs")
        #expect(result.status == 0, "\(result)")
        #expect(tableIDs(result.stdout) == ids.reversed().prefix(20).map(\.description), "\(result)")
        #expect(result.stdout.hasPrefix("RUN "), "\(result)")
        #expect(result.stderr == "… 5 older runs not shown (use --limit 0 for all)\n", "\(result)")
    }

    @Test func limitChoosesHowManyAndZeroMeansAll() throws {
        let sandbox = try Sandbox()
        let ids = try succeededRuns(25, in: sandbox)
        let three = try sandbox.run("runs", "--limit", "3")
        #expect(tableIDs(three.stdout) == ids.reversed().prefix(3).map(\.description), "\(three)")
        #expect(three.stderr.contains("… 22 older runs not shown"), "\(three)")
        let all = try sandbox.run("runs", "--limit=0")
        #expect(tableIDs(all.stdout) == ids.reversed().map(\.description), "\(all)")
        #expect(all.stderr.isEmpty, "\(all)")
    }

    @Test func jsonListsEveryRunNewestFirstUnlessLimited() throws {
        let sandbox = try Sandbox()
        let ids = try succeededRuns(25, in: sandbox)
        let all = try sandbox.run("runs", "--json")
        #expect(try jsonRuns(all).compactMap { $0["id"] as? String } == ids.reversed().map(\.description))
        #expect(all.stderr.isEmpty, "\(all)")
        let limited = try sandbox.run("runs", "--json", "--limit", "2")
        let objects = try jsonRuns(limited)
        #expect(objects.compactMap { $0["id"] as? String } == ids.reversed().prefix(2).map(\.description))
        for object in objects {
            #expect(requiredRunKeys.union(["finishedAt"]).isSubset(of: object.keys), "\(object)")
        }
        #expect(limited.stderr.contains("… 23 older runs not shown"), "\(limited)")
    }

    @Test func filtersByStatusScenarioAndStartTime() throws {
        let sandbox = try Sandbox()
        let now = Date()
        let fixtures = sandbox.fixtures
        let oldFailed = try fixtures.write(.failed, startedAt: now.addingTimeInterval(-3 * 86_400))
        let recentFailed = try fixtures.write(.failed, startedAt: now.addingTimeInterval(-2 * Self.hour))
        let recentApp = try fixtures.write(.succeeded, scenario: "app", startedAt: now.addingTimeInterval(-Self.hour))
        let interrupted = try fixtures.write(.interrupted, startedAt: now.addingTimeInterval(-30 * 60))
        let cancelled = try fixtures.write(.cancelled, startedAt: now.addingTimeInterval(-10 * 60))

        let cases: [([String], [RunID])] = [
            (["--status", "failed"], [recentFailed, oldFailed]),
            (["--status", "failed,cancelled"], [cancelled, recentFailed, oldFailed]),
            (["--status", "interrupted", "--status", "cancelled"], [cancelled, interrupted]),
            (["--scenario", "app"], [recentApp]),
            (["--since", "1d"], [cancelled, interrupted, recentApp, recentFailed]),
            (["--since", "90m"], [cancelled, interrupted, recentApp]),
            (["--since", "1d", "--status", "failed"], [recentFailed]),
            (["--since", now.addingTimeInterval(-45 * 60).formatted(.iso8601)], [cancelled, interrupted]),
        ]
        for (arguments, expected) in cases {
            let table = try sandbox.start(["runs"] + arguments).wait()
            #expect(table.status == 0, "\(arguments): \(table)")
            #expect(tableIDs(table.stdout) == expected.map(\.description), "\(arguments): \(table)")
            let json = try sandbox.start(["runs", "--json"] + arguments).wait()
            #expect(
                try jsonRuns(json).compactMap { $0["id"] as? String } == expected.map(\.description), "\(arguments)")
        }
        let none = try sandbox.run("runs", "--status", "running")
        #expect(none.status == 0, "\(none)")
        #expect(none.stdout.isEmpty, "\(none)")
        #expect(none.stderr.contains("No runs match (5 runs in"), "\(none)")
    }

    @Test func damagedJournalsAreListedAndSelectable() throws {
        let sandbox = try Sandbox()
        let good = try sandbox.fixtures.write(.succeeded, startedAt: Date().addingTimeInterval(-Self.hour))
        let damaged = "20250101-120000-000-1a2b3c4d"
        try Data("garbage\n".utf8).write(to: sandbox.journal(damaged))
        let listed = try sandbox.run("runs", "--status", "damaged")
        #expect(tableIDs(listed.stdout) == [damaged], "\(listed)")
        #expect(listed.stdout.contains("damaged"), "\(listed)")
        let json = try sandbox.run("runs", "--json")
        #expect(try jsonRuns(json).compactMap { $0["id"] as? String } == [good.description])
        #expect(json.stderr.contains(damaged), "\(json)")
    }

    @Test(arguments: [
        (
            ["--status", "done"],
            "unknown status 'done' for --status; valid: succeeded, failed, cancelled, interrupted, running, damaged"
        ),
        (["--status", "failed,"], "unknown status '' for --status"),
        (["--since", "yesterday"], "--since 'yesterday' is not a duration (30m, 2h, 7d) or an ISO-8601 date"),
        (["--since", "7x"], "--since '7x' is not a duration"),
        (["--limit", "-1"], "--limit '-1' is not a number of runs"),
        (["--limit", "many"], "--limit 'many' is not a number of runs"),
    ])
    func badFilterValuesAreUsageErrors(arguments: [String], message: String) throws {
        let result = try Sandbox().start(["runs"] + arguments).wait()
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(result.stderr.contains("See 'opctl runs --help'."), "\(result)")
    }

    // MARK: - The summary index

    @Test func aDamagedOrStaleIndexIsRebuiltFromTheJournals() throws {
        let sandbox = try Sandbox()
        let ids = try succeededRuns(3, in: sandbox)
        let first = try sandbox.run("runs", "--json")
        let index = sandbox.runsDirectory.appendingPathComponent("index.cache")
        #expect(FileManager.default.fileExists(atPath: index.path), "the listing keeps an index")
        let attributes = try FileManager.default.attributesOfItem(atPath: index.path)
        #expect(attributes[.posixPermissions] as? Int == 0o600)

        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<2048).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let wholeIndex = try Data(contentsOf: index)
        for damage in [garbage, wholeIndex.prefix(wholeIndex.count / 2), Data()] {
            try damage.write(to: index)
            let listed = try sandbox.run("runs", "--json")
            #expect(listed.status == 0, "\(listed)")
            #expect(listed.stdout == first.stdout, "\(listed)")
            #expect(listed.stderr.isEmpty, "\(listed)")
        }

        // A journal deleted, another added behind the index's back.
        try FileManager.default.removeItem(at: sandbox.fixtures.journal(ids[0]))
        let added = try sandbox.fixtures.write(.failed, startedAt: Date().addingTimeInterval(-60))
        let listed = try sandbox.run("runs", "--json")
        let runs = try jsonRuns(listed)
        #expect(runs.compactMap { $0["id"] as? String } == [added, ids[2], ids[1]].map(\.description), "\(listed)")
        #expect(runs.first?["status"] as? String == "failed")
    }

    @Test func runsFinishedByOtherProcessesWhileListingAreNeverLostOrDuplicated() throws {
        let sandbox = try Sandbox()
        _ = try succeededRuns(30, in: sandbox)
        let arguments = [
            "run", "auth", "--phone", "+79991234567", "--accept-terms", "--code", "123456", "--backend",
            "sim:?latency=20",
        ]
        let writers = try (0..<4).map { _ in try sandbox.start(arguments) }
        // Listings one after another while the four runs start, write and finish.
        let listings = try (0..<12).map { _ in try sandbox.run("runs", "--json", "--limit", "0") }
        let results = try writers.map { try $0.wait() }
        for result in results { #expect(result.status == 0, "\(result)") }
        for listing in listings {
            let ids = try jsonRuns(listing).compactMap { $0["id"] as? String }
            #expect(Set(ids).count == ids.count, "a run listed twice:\n\(listing)")
            #expect(ids.count >= 30 && ids.count <= 34, "\(listing)")
            #expect(listing.stderr.isEmpty, "\(listing)")
        }
        let final = try jsonRuns(try sandbox.run("runs", "--json", "--limit", "0"))
        #expect(final.count == 34)
        let created = Set(results.compactMap { runID(in: $0.stderr) })
        #expect(created.count == 4)
        #expect(created.isSubset(of: Set(final.compactMap { $0["id"] as? String })))
        #expect(final.allSatisfy { $0["status"] as? String == "succeeded" })
    }

    // MARK: - The state directory

    @Test func theStateDirectoryIsCreatedOwnerOnlyEvenUnderAPermissiveUmask() throws {
        let sandbox = try Sandbox()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "umask 000; exec \"$0\" run auth --phone +79991234567 --accept-terms --code 123456",
            try OpctlBinary.url().path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["OPCTL_STATE_DIR"] = sandbox.stateDirectory.path
        environment["HOME"] = sandbox.root.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for directory in [sandbox.stateDirectory, sandbox.runsDirectory] {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.path)
            #expect(attributes[.posixPermissions] as? Int == 0o700, "\(directory.path)")
        }
        let token = try FileManager.default.attributesOfItem(atPath: sandbox.tokenFile.path)
        #expect(token[.posixPermissions] as? Int == 0o600)
    }

    @Test func anExistingStateDirectoryOpenToOthersIsMadeOwnerOnly() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.stateDirectory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: sandbox.stateDirectory.path)
        let result = try sandbox.run("run", "auth", "--phone", "+79991234567", "--accept-terms", "--code", "123456")
        #expect(result.status == 0, "\(result)")
        let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.stateDirectory.path)
        #expect(attributes[.posixPermissions] as? Int == 0o700)
    }
}
