import Foundation
import Testing

/// The embedded simulator keeps its state in the state directory (`simulator/state.json`), so a
/// rerun in a new process meets the backend the first process left, as a client of a long-running
/// `opctl serve` does: the code it sent, the attempts spent, the answers kept per idempotency key.
struct SimulatorStateEndToEndTests {
    static let phone = "+79991234567"
    static let codePrompt = "Enter the 6-digit code sent to +79991234567: "

    /// The SMS the simulator announced in some output: one line each, code hidden off a terminal.
    private func announcedSMS(_ outputs: OpctlResult...) -> Int {
        outputs.map { $0.stderrLines.filter { $0.contains("📱 SMS sent to") }.count }.reduce(0, +)
    }

    private func stateDirectory(_ sandbox: Sandbox) -> URL {
        sandbox.stateDirectory.appendingPathComponent("simulator", isDirectory: true)
    }

    private func stateFile(_ sandbox: Sandbox) -> URL {
        stateDirectory(sandbox).appendingPathComponent("state.json")
    }

    /// QA's reproduction: at a terminal, a wrong code, then Ctrl-C at the second prompt; the rerun
    /// with the right code verifies the code the first process sent.
    @Test func aSignInInterruptedAfterAWrongCodeSignsInOnRerunWithTheOneSMSSent() throws {
        let sandbox = try Sandbox()
        let terminal = try PseudoTerminal()
        let process = try sandbox.start(["run", "auth", "--phone", Self.phone, "--accept-terms"], terminal: terminal)
        try process.waitForStderr(containing: Self.codePrompt)
        terminal.type("111111")
        try process.waitForStderr(containing: "Wrong code. 2 attempts left.\n\(Self.codePrompt)")
        process.interrupt()
        let interrupted = try process.wait()
        #expect(interrupted.status == 130, "\(interrupted)")
        let id = try #require(runID(in: interrupted.stderr), "\(interrupted)")

        let rerun = try sandbox.run("rerun", id, "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stdout.contains("Signed in."), "\(rerun)")
        #expect(announcedSMS(interrupted, rerun) == 1, "one SMS, as a real backend sends:\n\(interrupted)\n\(rerun)")
    }

    /// A run killed after the SMS went out, before its answer came back: the rerun repeats the send
    /// under its key, gets the first answer, and verifies the code the first process sent.
    @Test func aRerunOfARunKilledAfterTheSMSVerifiesThatCodeWithoutASecondSMS() throws {
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            "sim:?latency=3000",
        ])
        // The backend acts, and announces, before the latency; the answer is still on its way.
        try process.waitForStderr(containing: "📱 SMS sent to")
        process.killNow()
        let killed = try process.wait()
        #expect(killed.signal == SIGKILL, "\(killed)")
        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        let id = try #require(runs.first?["id"] as? String, "\(listing)")

        let rerun = try sandbox.run("rerun", id, "--code", "123456", "--backend", "sim:")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stdout.contains("Signed in."), "\(rerun)")
        #expect(!rerun.stderr.contains("📱"), "a repeat answered from the kept answer sends no SMS:\n\(rerun)")
        #expect(announcedSMS(killed, rerun) == 1)
    }

    /// A run that failed for good on injected faults (`fail=phone:4`, three attempts): its rerun
    /// meets the one failure left, as against `opctl serve`, and signs in after one retry.
    @Test func aRerunGoesOnWithTheFaultsTheRunLeft() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            "sim:?fail=phone:4")
        #expect(run.status == 1, "\(run)")
        let id = try #require(runID(in: run.stderr), "\(run)")

        let rerun = try sandbox.run("rerun", id, "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stdout.contains("Signed in."), "\(rerun)")
    }

    @Test func theStateIsOwnerOnlyAndHoldsNoIdempotencyKeyInClear() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456")
        #expect(run.status == 0, "\(run)")
        let manager = FileManager.default
        #expect(try manager.attributesOfItem(atPath: stateDirectory(sandbox).path)[.posixPermissions] as? Int == 0o700)
        for name in ["state.json", "state.lock"] {
            let file = stateDirectory(sandbox).appendingPathComponent(name).path
            #expect(try manager.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600, "\(name)")
        }
        let journal = try String(
            contentsOf: sandbox.runsDirectory.appendingPathComponent("\(try #require(runID(in: run.stderr))).jsonl"),
            encoding: .utf8)
        let keys = journal.matches(of: /"idempotencyKey":"([0-9a-f]+)"/).map { String($0.1) }
        #expect(!keys.isEmpty)
        let state = try String(contentsOf: stateFile(sandbox), encoding: .utf8)
        for key in keys { #expect(!state.contains(key)) }
    }

    @Test(arguments: [
        ("not JSON", "is damaged (not a JSON object)"),
        (#"{"format":"authsimulator.state","version":2}"#, "was written in format version 2; this build reads 1"),
    ])
    func aStateThatCannotBeUsedIsReplacedAndSaidOnce(content: String, reason: String) throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(
            at: stateDirectory(sandbox), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try Data(content.utf8).write(to: stateFile(sandbox))

        let run = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456")
        #expect(run.status == 0, "\(run)")
        #expect(run.signal == nil)
        let note = "opctl: the simulated backend's state in \(stateFile(sandbox).path) \(reason); it started afresh"
        #expect(run.stderrLines.filter { $0 == note }.count == 1, "\(run)")
        let fields = try #require(
            try parseJSON(String(contentsOf: stateFile(sandbox), encoding: .utf8)) as? [String: Any])
        #expect(fields["format"] as? String == "authsimulator.state")
        #expect(fields["version"] as? Int == 1)

        let again = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456")
        #expect(again.status == 0, "\(again)")
        #expect(!again.stderr.contains("started afresh"), "the fresh state stored in its place reads:\n\(again)")
    }

    @Test func aStateThatCannotBeKeptStopsTheRunBeforeAnythingIsSent() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.stateDirectory, withIntermediateDirectories: true)
        // The simulator's folder is taken by a file (permissions would not stop the tests' root).
        try Data("not a folder".utf8).write(to: stateDirectory(sandbox))

        let run = try sandbox.run("run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456")
        #expect(run.status == 1, "\(run)")
        #expect(run.signal == nil)
        #expect(
            run.stderr.hasPrefix(
                "opctl: cannot keep the simulated backend's state: \(stateDirectory(sandbox).path) is not a directory"),
            "\(run)")
        #expect(!run.stderr.contains("📱") && !run.stderr.contains("PhoneOp"), "\(run)")
        let listing = try sandbox.run("runs", "--json")
        #expect((try parseJSON(listing.stdout) as? [Any])?.isEmpty == true, "no run was started:\n\(listing)")
    }

    /// Two processes at once, each changing the state between the other's requests: one waits at
    /// the code prompt while the other fails a code for another number. Each request reads the
    /// state the other left, so neither writes over the other's change.
    @Test func twoProcessesAtOnceKeepEachOthersChanges() throws {
        let sandbox = try Sandbox()
        let terminal = try PseudoTerminal()
        let waiting = try sandbox.start(["run", "auth", "--phone", Self.phone, "--accept-terms"], terminal: terminal)
        try waiting.waitForStderr(containing: Self.codePrompt)

        let other = "+79990001122"
        let failed = try sandbox.run("run", "auth", "--phone", other, "--accept-terms", "--code", "000000")
        #expect(failed.status == 1, "\(failed)")
        #expect(failed.stderr.contains("2 attempts left"), "\(failed)")
        let failedID = try #require(runID(in: failed.stderr), "\(failed)")

        terminal.type("123456")
        let signedIn = try waiting.wait()
        #expect(signedIn.status == 0, "the code sent before the other process wrote is still pending:\n\(signedIn)")

        let again = try sandbox.run("rerun", failedID, "--code", "111111")
        #expect(again.status == 1, "\(again)")
        #expect(again.stderr.contains("You have 1 attempt left"), "the other process kept this one's count:\n\(again)")
    }
}
