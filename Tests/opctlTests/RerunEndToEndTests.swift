import Foundation
import Testing

/// Runs that fail, are killed or interrupted, then `opctl rerun`: completed steps come from the
/// journal, the rest runs again.
struct RerunEndToEndTests {
    static let phone = "+7 999 123-45-67"

    @Test func wrongCodeThenRerunWithTheRightOneReplaysTheCompletedSteps() throws {
        let sandbox = try Sandbox()
        let failed = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "000000")
        #expect(failed.status == 1, "\(failed)")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        #expect(failed.stderr.contains("CodeOp failed"), "\(failed)")
        #expect(failed.stderr.contains("opctl rerun \(id) --code CODE"), "\(failed)")

        let rerun = try sandbox.run("rerun", id, "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stderr.contains("PhoneOp: replayed"), "\(rerun)")
        #expect(rerun.stderr.contains("TermsOfUseOp: replayed"), "\(rerun)")
        #expect(!rerun.stderr.contains("PhoneOp: attempt"), "PhoneOp was sent again:\n\(rerun)")
        #expect(!rerun.stderr.contains("TermsOfUseOp: attempt"), "TermsOfUseOp was sent again:\n\(rerun)")
        // The rerun's attempt follows the first session's (attempts count over the whole run).
        #expect(rerun.stderr.contains("CodeOp: attempt 2 succeeded"))
        #expect(rerun.stdout.contains("Signed in."))

        let again = try sandbox.run("rerun", id)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("already succeeded"))
    }

    @Test func killedMidRunThenRerunToSuccess() throws {
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend", "sim:?latency=400",
        ])
        try process.waitForStderr(containing: "PhoneOp: attempt 1 succeeded")
        process.killNow()
        let killed = try process.wait()
        #expect(killed.signal == SIGKILL, "\(killed)")

        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        let run = try #require(runs.first, "\(listing)")
        #expect(runs.count == 1)
        #expect(run["status"] as? String == "interrupted", "\(listing)")
        let id = try #require(run["id"] as? String)

        let rerun = try sandbox.run("rerun", id, "--code", "123456", "--backend", "sim:")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stderr.contains("PhoneOp: replayed"), "\(rerun)")
        #expect(!rerun.stderr.contains("PhoneOp: attempt"), "\(rerun)")
    }

    @Test func interruptedRunExits130IsListedAsInterruptedAndReruns() throws {
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend", "sim:?latency=400",
        ])
        try process.waitForStderr(containing: "PhoneOp: attempt 1 succeeded")
        process.interrupt()
        let interrupted = try process.wait()
        #expect(interrupted.status == 130, "\(interrupted)")
        #expect(interrupted.signal == nil, "\(interrupted)")
        let id = try #require(runID(in: interrupted.stderr), "\(interrupted)")
        #expect(interrupted.stderr.contains("opctl rerun \(id)"), "\(interrupted)")

        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        #expect(runs.first { $0["id"] as? String == id }?["status"] as? String == "interrupted", "\(listing)")

        // The hint, typed as printed (with the code filled in), finishes the run.
        let hint = try #require(
            interrupted.stderrLines.first { $0.hasPrefix("to rerun: opctl rerun ") }, "\(interrupted)")
        let words = hint.dropFirst("to rerun: opctl ".count).split(separator: " ").map {
            $0 == "CODE" ? "123456" : String($0)
        }
        let rerun = try sandbox.start(words).wait()
        #expect(rerun.status == 0, "\(hint)\n\(rerun)")
        #expect(rerun.stderr.contains("PhoneOp: replayed"), "\(rerun)")
    }

    @Test func twoRerunsOfOneRunAtOnceOneFinishesItTheOtherSaysWhy() throws {
        let sandbox = try Sandbox()
        let failed = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "000000")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        let arguments = ["rerun", id, "--code", "123456", "--backend", "sim:?latency=300"]
        let first = try sandbox.start(arguments)
        let second = try sandbox.start(arguments)
        let results = [try first.wait(), try second.wait()]

        let winners = results.filter { $0.status == 0 && $0.stdout.contains("Signed in.") }
        #expect(winners.count == 1, "\(results)")
        for other in results where !(other.status == 0 && other.stdout.contains("Signed in.")) {
            // Either it found the run busy, or (if the first was already done) finished.
            let busy = other.status == 1 && other.stderr.contains("still being written by another process")
            let done = other.status == 0 && other.stdout.contains("already succeeded")
            #expect(busy || done, "\(other)")
            #expect(other.signal == nil)
        }
        let runs = try #require(try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]])
        #expect(runs.map { $0["status"] as? String } == ["succeeded"])
    }

    @Test func aRunInProgressIsListedAsRunning() throws {
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend", "sim:?latency=400",
        ])
        try process.waitForStderr(containing: "PhoneOp: attempt 1 succeeded")
        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        #expect(runs.map { $0["status"] as? String } == ["running"], "\(listing)")
        // Issue 36: a live run has failed nowhere and is in doubt nowhere: it is at a step.
        #expect(runs.first?["failedStep"] is NSNull, "\(listing)")
        #expect(runs.first?["currentStep"] is String, "\(listing)")
        // And how long it has been there, as `show` says it.
        #expect(runs.first?["currentStepMilliseconds"] as? Int != nil, "\(listing)")
        #expect(runs.first?["currentStepSince"] is String, "\(listing)")
        let id = try #require(runs.first?["id"] as? String)
        let table = try sandbox.run("runs").stdout
        #expect(table.range(of: #"at [\w/]+ for \d+(\.\d)? m?s"#, options: .regularExpression) != nil, "\(table)")
        let shown = try sandbox.run("show", id).stdout
        #expect(shown.contains("· running"), "\(shown)")
        #expect(!shown.contains("in doubt"), "\(shown)")
        let finished = try process.wait()
        #expect(finished.status == 0, "\(finished)")
    }

    @Test func theAccessTokenNeverReachesTheJournalAndARerunAsksForItAgainWithTheSameKey() throws {
        let sandbox = try Sandbox()
        // The token file's place is taken by a folder: SaveTokenOp fails after CodeOp succeeded.
        try FileManager.default.createDirectory(at: sandbox.tokenFile, withIntermediateDirectories: true)
        let failed = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456")
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.contains("SaveTokenOp failed"), "\(failed)")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        let journal = sandbox.runsDirectory.appendingPathComponent("\(id).jsonl")
        #expect(try String(contentsOf: journal, encoding: .utf8).contains("AuthToken is confidential"))

        try FileManager.default.removeItem(at: sandbox.tokenFile)
        let rerun = try sandbox.run("rerun", id, "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stderr.contains("PhoneOp: replayed"), "\(rerun)")
        // The rerun's attempt follows the first session's (attempts count over the whole run).
        #expect(rerun.stderr.contains("CodeOp: attempt 2 succeeded"), "the token is asked for again:\n\(rerun)")
        let saved = try String(contentsOf: sandbox.tokenFile, encoding: .utf8)
        let fields = try parseJSON(saved) as? [String: Any]
        let token = try #require(fields?["token"] as? String, "\(saved)")
        let text = try String(contentsOf: journal, encoding: .utf8)
        #expect(!text.contains(token), "the journal holds the access token in clear")
        let lines = text.split(separator: "\n").filter { $0.contains("\"CodeOp\"") && $0.contains("idempotencyKey") }
        let keys = Set(lines.compactMap { $0.firstMatch(of: /"idempotencyKey":"([0-9a-f]+)"/)?.1 })
        #expect(lines.count == 2 && keys.count == 1, "CodeOp's two launches carry one key: \(lines)")
    }
}
