import Foundation
import Testing

/// Issue 36 §1: a run SIGKILLed while PhoneOp waits to retry. Every view says the same of its
/// step and status, and a rerun's attempt is numbered after the killed run's, as a person reads
/// attempts over the whole run.
struct KilledInRetryWaitEndToEndTests {
    static let phone = "+79991234567"

    /// Starts the run, kills it once PhoneOp's first attempt failed and its retry is pending, and
    /// returns the sandbox and the run's id. Its fault plan (two phone failures) is not any
    /// rerun's below, so each rerun meets its own plan from the start rather than what this
    /// one left (the simulator keeps a plan's counters across processes).
    private func killedInRetryWait() throws -> (Sandbox, String) {
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            "sim:?latency=1500&fail=phone:2",
        ])
        try process.waitForStderr(containing: "— retrying in")
        process.killNow()
        let killed = try process.wait()
        #expect(killed.signal == SIGKILL, "\(killed)")
        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        return (sandbox, try #require(runs.first?["id"] as? String, "\(listing)"))
    }

    @Test func runsRunsJSONAndShowSayTheSameStepAndStatus() throws {
        let (sandbox, id) = try killedInRetryWait()
        let table = try sandbox.run("runs")
        let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix(id) }, "\(table)")
        let cells = row.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        #expect(Array(cells.dropFirst().prefix(3)) == ["auth", "interrupted", "PhoneOp"], "\(table)")

        let listed = try #require(
            try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]], "runs --json")
        let run = try #require(listed.first { $0["id"] as? String == id })
        #expect(run["status"] as? String == "interrupted", "\(run)")
        #expect(run["failedStep"] as? String == "PhoneOp", "\(run)")

        let shown = try sandbox.run("show", id).stdout
        #expect(shown.hasPrefix("Run \(id) · auth · interrupted\n"), "\(shown)")
        #expect(shown.contains("\n  PhoneOp: interrupted\n"), "\(shown)")
        let object = try #require(try parseJSON(sandbox.run("show", id, "--json").stdout) as? [String: Any])
        #expect(object["status"] as? String == "interrupted", "\(object)")
        #expect(object["failedStep"] as? String == "PhoneOp", "\(object)")
        #expect(object["hint"] as? String == run["hint"] as? String, "show --json and runs --json: \(object)\n\(run)")
    }

    /// The rerun's launch of PhoneOp is its second attempt in the rerun's progress, in `show`
    /// and `show --json`; the journal still records it as the session's first.
    @Test func theRerunsAttemptIsNumberedAfterTheKilledRunsAttempts() throws {
        let (sandbox, id) = try killedInRetryWait()
        let rerun = try sandbox.run("rerun", id, "--code", "123456", "--backend", "sim:")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stderrLines.contains { $0.hasPrefix("PhoneOp: attempt 2 succeeded") }, "\(rerun)")

        let shown = try sandbox.run("show", id).stdout
        #expect(shown.contains("\n    attempt 1 (session 1): failed: "), "\(shown)")
        #expect(shown.contains("\n    attempt 2 (session 2): succeeded"), "\(shown)")
        let object = try #require(try parseJSON(sandbox.run("show", id, "--json").stdout) as? [String: Any])
        let steps = try #require(object["steps"] as? [[String: Any]])
        let phone = try #require(steps.first { $0["step"] as? String == "PhoneOp" })
        let attempts = try #require(phone["attempts"] as? [[String: Any]])
        #expect(attempts.map { $0["attempt"] as? Int } == [1, 2], "\(phone)")
        #expect(attempts.map { $0["session"] as? Int } == [1, 2], "\(phone)")

        let journal = try String(contentsOf: sandbox.journal(id), encoding: .utf8)
        let launches = journal.split(separator: "\n").filter {
            $0.contains(#""event":"stepLaunched""#) && $0.contains("PhoneOp")
        }
        #expect(launches.count == 2 && launches.allSatisfy { $0.contains(#""attempt":1"#) }, "\(launches)")
    }

    /// The rerun's own retry is the run's third attempt in the rerun's progress, in `show` and
    /// in the diagram of the run (its retry frame, and the note of PhoneOp drawn as a black box),
    /// though the rerun's trace numbers it as the session's second.
    @Test func progressShowAndTheDiagramNumberTheRerunsRetryAlike() throws {
        let (sandbox, id) = try killedInRetryWait()
        let rerun = try sandbox.run("rerun", id, "--code", "123456", "--backend", "sim:?fail=phone:1")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stderrLines.contains { $0.hasPrefix("PhoneOp: attempt 2 failed") }, "\(rerun)")
        #expect(rerun.stderrLines.contains { $0.hasPrefix("PhoneOp: attempt 3 succeeded") }, "\(rerun)")

        let shown = try sandbox.run("show", id).stdout
        #expect(shown.contains("\n    attempt 2 (session 2): failed: "), "\(shown)")
        #expect(shown.contains("\n    attempt 3 (session 2): succeeded"), "\(shown)")

        let drawn = try sandbox.run("diagram", "--run", id, "--format", "plantuml").stdout
        #expect(drawn.contains("note over PhoneOp : took 3 attempts"), "\(drawn)")
        let deep = try sandbox.run("diagram", "--run", id, "--format", "plantuml", "--depth", "6").stdout
        let retries = deep.split(separator: "\n").filter { $0.hasPrefix("loop retry ") }
        #expect(retries.map { $0.prefix("loop retry 3 of 4".count) } == ["loop retry 3 of 4"], "\(deep)")
        let step = try sandbox.run("diagram", "--run", id, "--format", "plantuml", "--step", "PhoneOp").stdout
        #expect(step.contains("\nloop retry 3 of 4: ") && !step.contains("retry 2 of 3"), "\(step)")
    }

    /// A rerun whose PhoneOp fails for good after its three attempts ends on the run's count of
    /// them: the killed run's one and the rerun's three.
    @Test func aRerunFailingForGoodCountsTheKilledRunsAttemptToo() throws {
        let (sandbox, id) = try killedInRetryWait()
        let rerun = try sandbox.run("rerun", id, "--code", "123456", "--backend", "sim:?fail=phone:5")
        #expect(rerun.status == 1, "\(rerun)")
        #expect(rerun.stderr.contains("opctl: PhoneOp failed after 4 attempts: "), "\(rerun)")
        #expect(rerun.stderrLines.contains { $0.hasPrefix("PhoneOp: attempt 4 failed") }, "\(rerun)")
    }
}
