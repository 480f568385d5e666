import Foundation
import Testing

/// A run killed while a step with side effects is in flight: the rerun repeats that step with
/// the key of its attempt, or — when the journal has none — stops before it unless told.
struct InDoubtRerunEndToEndTests {
    static let phone = "+7 999 123-45-67"

    /// Kills the built opctl while CodeOp's verification request is in flight (every simulated
    /// request takes 400 ms; the SMS has gone out), and returns the run id.
    private func killDuringVerification(_ sandbox: Sandbox) throws -> String {
        let process = try sandbox.start([
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend", "sim:?latency=400",
        ])
        try process.waitForStderr(containing: "SMS sent")
        process.killNow()
        #expect(try process.wait().signal == SIGKILL)
        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        return try #require(runs.first?["id"] as? String, "\(listing)")
    }

    @Test func theStepInDoubtIsRepeatedWithItsKey() throws {
        let sandbox = try Sandbox()
        let id = try killDuringVerification(sandbox)
        let journal = try String(contentsOf: sandbox.journal(id), encoding: .utf8)
        let codeLaunch = try #require(
            journal.split(separator: "\n").first { $0.contains(#""name":"CodeOp""#) && $0.contains("stepLaunched") })
        #expect(codeLaunch.contains(#""purity":"sideEffects""#))
        #expect(codeLaunch.contains(#""idempotencyKey":""#), "the key was on disk before the kill")

        let shown = try sandbox.run("show", id, "--json")
        #expect(shown.status == 0, "\(shown)")
        #expect(!shown.stdout.contains("idempotencyKey"), "show never prints a key")
        #expect(shown.stdout.contains(#""inDoubt":true"#), "\(shown)")
        let shownText = try sandbox.run("show", id)
        #expect(shownText.stdout.contains("CodeOp: interrupted — in doubt"), "\(shownText)")

        let rerun = try sandbox.run("rerun", id, "--code", "123456", "--backend", "sim:")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stderr.contains("PhoneOp: replayed"), "\(rerun)")
        // The rerun's attempt follows the first session's (attempts count over the whole run).
        #expect(rerun.stderr.contains("CodeOp: attempt 2 succeeded"), "\(rerun)")
        let after = try String(contentsOf: sandbox.journal(id), encoding: .utf8)
        let keys = after.split(separator: "\n").filter {
            $0.contains(#""name":"CodeOp""#) && $0.contains("stepLaunched")
        }
        .compactMap { line in
            line.range(of: #""idempotencyKey":"[0-9a-f]+""#, options: .regularExpression).map { line[$0] }
        }
        #expect(keys.count == 2 && keys[0] == keys[1], "the rerun repeated the attempt with its key: \(keys)")
    }

    @Test func withoutAKeyTheRerunStopsUnlessToldToRelaunch() throws {
        let sandbox = try Sandbox()
        let id = try killDuringVerification(sandbox)
        // A journal from before keys (and line checksums) were recorded.
        let url = sandbox.journal(id)
        let text = try String(contentsOf: url, encoding: .utf8)
        try Data(
            text.replacingOccurrences(of: #","sum":"[0-9a-f]{8}""#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #","idempotencyKey":"[0-9a-f]+""#, with: "", options: .regularExpression).utf8
        ).write(to: url)

        let refused = try sandbox.run("rerun", id, "--code", "123456", "--backend", "sim:")
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("no idempotency key"), "\(refused)")
        // The relaunch it suggests carries the code the run still needs, and `show` suggests the same.
        let relaunch = "If you know it did not take effect: opctl rerun \(id) --code CODE --relaunch-in-doubt"
        #expect(refused.stderr.contains(relaunch), "\(refused)")
        let show = try sandbox.run("show", id)
        #expect(show.stdout.contains(relaunch + "\n") && !show.stdout.contains("To resume:"), "\(show)")
        #expect(!refused.stderr.contains("CodeOp: attempt"), "nothing was launched for the step in doubt:\n\(refused)")

        // Told to relaunch, the person says the attempt did not take effect: here the backend
        // forgets it (the simulator keeps its state in the state directory). Otherwise the send,
        // under a new key 0 s after the first SMS, would be refused as too soon and retried after
        // the 30 s the backend asks for.
        try FileManager.default.removeItem(at: sandbox.stateDirectory.appendingPathComponent("simulator"))
        let forced = try sandbox.run("rerun", id, "--code", "123456", "--backend", "sim:", "--relaunch-in-doubt")
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.stdout.contains("Signed in."), "\(forced)")
    }
}
