import Foundation
import Testing

/// `opctl run` as a user runs it: the built binary in its own process, a fresh state directory.
struct RunEndToEndTests {
    static let phone = "+7 999 123-45-67"

    @Test func scriptedSignInSucceedsAndNeverShowsTheClearToken() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456")
        #expect(result.status == 0, "\(result)")

        let saved = try #require(
            try parseJSON(String(contentsOf: sandbox.tokenFile, encoding: .utf8)) as? [String: Any])
        let token = try #require(saved["token"] as? String)
        #expect(token.count > 20)
        #expect(!result.allOutput.contains(token), "the clear token leaked:\n\(result)")
        #expect(result.stdout.contains("Signed in."))
        #expect(result.stdout.contains("saved to \(sandbox.tokenFile.path)"), "\(result)")
        let redacted = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("Auth token ") }?.split(separator: " ")[2])
        #expect(redacted.contains("…") && redacted.count < 16, "not redacted: \(redacted)")
        for step in ["PhoneOp", "TermsOfUseOp", "CodeOp", "SaveTokenOp"] {
            #expect(result.stderr.contains("\(step): attempt 1 succeeded"), "\(result)")
        }
        #expect(!result.stderr.contains("\u{1B}["), "colour with NO_COLOR set")
    }

    @Test func transientFailuresAreRetriedAutomatically() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456",
            "--backend", "sim:?fail=phone:2,terms:1,code.send:1")
        #expect(result.status == 0, "\(result)")
        // PhoneOp retries its request itself (the number is typed once), and reports each
        // attempt: the progress counts them as `show` and the diagram do.
        #expect(result.stderr.contains("PhoneOp: attempt 3 succeeded"), "\(result)")
        #expect(result.stderr.contains("TermsOfUseOp: attempt 2 succeeded"), "\(result)")
        #expect(result.stderr.contains("CodeOp: attempt 2 succeeded"), "\(result)")
        #expect(result.stderr.contains("retrying in"))
    }

    /// `--help` shows `fail=code.verify:2` as an example, but a retried CodeOp sends the SMS again
    /// and the simulator refuses a second send within 30 s ("Too many requests"), so the retry
    /// cannot succeed. The fix belongs to AuthFlow's CodeOp (verify again without re-sending).
    @Test func transientCodeVerifyFailureIsRetried() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            "sim:?fail=code.verify:1")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("CodeOp: attempt 2 succeeded"), "\(result)")
    }

    @Test func declinedTermsExitWithThree() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run("run", "auth", "--phone", Self.phone, "--decline-terms")
        #expect(result.status == 3, "\(result)")
        #expect(result.stderr.contains("declined"))
        #expect(result.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: sandbox.tokenFile.path))
        let runs = try #require(try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]])
        #expect(runs.map { $0["status"] as? String } == ["cancelled"])
    }

    @Test func twoRunsAtOnceOnOneStateDirectoryBothSucceed() throws {
        let sandbox = try Sandbox()
        let arguments = [
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend", "sim:?latency=100",
        ]
        let first = try sandbox.start(arguments)
        let second = try sandbox.start(arguments)
        let results = [try first.wait(), try second.wait()]
        for result in results { #expect(result.status == 0, "\(result)") }
        let ids = results.compactMap { runID(in: $0.stderr) }
        #expect(Set(ids).count == 2, "\(results)")

        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        #expect(Set(runs.compactMap { $0["id"] as? String }) == Set(ids))
        #expect(runs.allSatisfy { $0["status"] as? String == "succeeded" }, "\(listing)")
    }

    @Test func codeFromStandardInput() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code-stdin", stdin: Data("123456\n".utf8))
        #expect(result.status == 0, "\(result)")
    }

    @Test func appScenarioSignsInOnceThenNeedsNoAnswers() throws {
        let sandbox = try Sandbox()
        let first = try sandbox.run("run", "app", "--phone", Self.phone, "--accept-terms", "--code", "123456")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.hasPrefix("Signed in."), "\(first)")
        let second = try sandbox.run("run", "app")
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.hasPrefix("Already signed in."), "\(second)")
        let runs = try #require(try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]])
        #expect(
            runs.map { $0["status"] as? String } == ["succeeded", "succeeded"], "app runs are journaled to the end")
    }
}
