import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 26 over the built binary: after an opctl process is killed with SIGKILL mid-run, the
/// next opctl command leaves no draft holding a secret in the state directory — a token draft
/// beside the saved sign-in, a journal draft under `runs/` — except one a live process holds.
struct AbandonedDraftEndToEndTests {
    /// Every hidden `*.tmp` under the state directory, by path relative to it.
    private func drafts(_ sandbox: Sandbox) throws -> Set<String> {
        let root = sandbox.stateDirectory.path
        let enumerator = try #require(FileManager.default.enumerator(atPath: root))
        return Set(enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".tmp") })
    }

    @Test func theNextCommandAfterAKillLeavesNoDraftButALiveOne() throws {
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456", "--backend",
            "sim:?latency=400",
        ])
        try process.waitForStderr(containing: "PhoneOp: attempt 1 succeeded")
        // What a process killed mid-save or mid-create leaves, with the secrets they hold.
        let leftovers = [
            ".auth-token.json.3735928559.tmp", ".auth-token.json.1a2b.tmp",
            "runs/.20250101-120000-000-1a2b3c4d.jsonl.0badf00d.tmp",
        ]
        for name in leftovers {
            try Data(#"{"token":"sim1.live","input":"+79991234567"}"#.utf8)
                .write(to: sandbox.stateDirectory.appendingPathComponent(name))
        }
        let live = "runs/.20250101-120000-000-5e6f7a8b.jsonl.0badf00d.tmp"
        let liveURL = sandbox.stateDirectory.appendingPathComponent(live)
        try Data().write(to: liveURL)
        let held = open(liveURL.path, O_RDONLY | O_CLOEXEC)
        try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        defer { close(held) }
        process.killNow()
        #expect(try process.wait().signal == SIGKILL)
        #expect(try drafts(sandbox) == Set(leftovers + [live]))

        let listing = try sandbox.run("runs", "--json")
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.stdout.contains(#""status":"interrupted""#), "\(listing)")
        #expect(try drafts(sandbox) == [live], "only the draft a live process holds is left")
        #expect(!listing.stdout.contains("sim1.live") && !listing.stderr.contains("sim1.live"))
    }
}
