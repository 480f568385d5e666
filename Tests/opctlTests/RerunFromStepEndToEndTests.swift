import AuthFlow
import AuthSimulator
import Foundation
import HTTPTestSupport
import Operations
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `opctl rerun ID --from STEP` against the built binary: a new run, linked to the old one, that
/// replays the steps before STEP and sends STEP again as a new request; the old run's journal
/// stays as it was.
@Suite(.serialized)
struct RerunFromStepEndToEndTests {
    static let phone = "+79991234567"

    /// Signs in and returns the run's id and its journal's bytes.
    private func signIn(_ sandbox: Sandbox, backend: String = "sim:") throws -> (id: String, bytes: Data) {
        let signedIn = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend", backend)
        #expect(signedIn.status == 0, "\(signedIn)")
        let id = try #require(runID(in: signedIn.stderr), "\(signedIn)")
        return (id, try Data(contentsOf: sandbox.journal(id)))
    }

    @Test func fromCodeOpAgainstTheEmbeddedSimulatorSendsANewSMSAndReplaysPhoneOp() throws {
        let sandbox = try Sandbox()
        let (old, oldBytes) = try signIn(sandbox)

        let rerun = try sandbox.run("rerun", old, "--from", "CodeOp", "--yes", "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stderr.contains("PhoneOp: replayed"), "\(rerun)")
        #expect(!rerun.stderr.contains("PhoneOp: attempt"), "PhoneOp was sent again:\n\(rerun)")
        #expect(rerun.stderr.components(separatedBy: "SMS sent").count == 2, "one new SMS:\n\(rerun)")
        #expect(rerun.stderr.contains("CodeOp: attempt 1 succeeded"), "\(rerun)")
        let new = try #require(runID(in: rerun.stderr), "\(rerun)")
        #expect(new != old)
        #expect(rerun.stderr.contains("run \(new) reruns \(old) from VerificationScenario/CodeOp"), "\(rerun)")
        #expect(try Data(contentsOf: sandbox.journal(old)) == oldBytes, "the old run's journal changed")

        // The link, both ways, in `show --json`, `runs --json` and the `runs` table.
        let newShown = try #require(try parseJSON(sandbox.run("show", new, "--json").stdout) as? [String: Any])
        #expect(newShown["rerunOf"] as? [String: String] == ["run": old, "step": "VerificationScenario/CodeOp"])
        let oldShown = try #require(try parseJSON(sandbox.run("show", old, "--json").stdout) as? [String: Any])
        #expect(oldShown["reruns"] as? [[String: String]] == [["run": new, "step": "VerificationScenario/CodeOp"]])
        #expect(oldShown["rerunOf"] == nil)
        let listing = try #require(try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]])
        #expect(listing.first { $0["id"] as? String == new }?["rerunOf"] as? [String: String] != nil)
        #expect(listing.first { $0["id"] as? String == old }?["reruns"] as? [[String: String]] != nil)
        let table = try sandbox.run("runs").stdout
        #expect(table.contains("rerun of \(old) from VerificationScenario/CodeOp"), "\(table)")
        #expect(table.contains("rerun as \(new) from VerificationScenario/CodeOp"), "\(table)")
        let text = try sandbox.run("show", old).stdout
        #expect(text.contains("This run was rerun as \(new) from VerificationScenario/CodeOp"), "\(text)")
    }

    @Test func fromCodeOpAgainstALoopbackServerSendsOneMoreSMSAndNoSecondPhoneRequest() throws {
        let sms = LockedState(0)
        var configuration = SimulatedBackend.Configuration()
        configuration.onSMS = { _ in sms.withLock { $0 += 1 } }
        let backend = SimulatedBackend(configuration: configuration)
        let server = try RecordingServer(serving: backend)
        defer { server.stop() }
        let sandbox = try Sandbox()
        let (old, oldBytes) = try signIn(sandbox, backend: server.baseURL.absoluteString)
        #expect(sms.withLock { $0 } == 1)

        // The backend the run used is the rerun's too.
        let rerun = try sandbox.run("rerun", old, "--from", "CodeOp", "--yes", "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(sms.withLock { $0 } == 2, "the server sent \(sms.withLock { $0 }) SMS")
        #expect(backend.requestCount(for: .phone) == 1, "PhoneOp was sent again")
        let sends = server.idempotencyKeys(pathEndingWith: "code/send")
        #expect(sends.count == 2 && Set(sends).count == 2, "CodeOp's new request has a new key")
        #expect(try Data(contentsOf: sandbox.journal(old)) == oldBytes, "the old run's journal changed")
    }

    @Test func theNewRunKilledMidwayIsFinishedByAPlainRerun() throws {
        let sandbox = try Sandbox()
        let (old, oldBytes) = try signIn(sandbox)
        let process = try sandbox.start([
            "rerun", old, "--from", "CodeOp", "--yes", "--code", "123456", "--backend", "sim:?latency=400",
        ])
        let progress = try process.waitForStderr(containing: "TermsOfUseOp: replayed")
        process.killNow()
        let killed = try process.wait()
        #expect(killed.signal == SIGKILL, "\(killed)")
        let new = try #require(
            progress.firstMatch(of: /run ([0-9a-f-]+) reruns/).map { String($0.1) }, "\(progress)")

        let rerun = try sandbox.run("rerun", new, "--code", "123456", "--backend", "sim:")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stderr.contains("PhoneOp: replayed"), "\(rerun)")
        #expect(rerun.stderr.contains("TermsOfUseOp: replayed"), "\(rerun)")
        #expect(rerun.stdout.contains("Signed in."), "\(rerun)")
        let shown = try #require(try parseJSON(sandbox.run("show", new, "--json").stdout) as? [String: Any])
        #expect(shown["status"] as? String == "succeeded")
        #expect((shown["rerunOf"] as? [String: String])?["run"] == old)
        #expect(try Data(contentsOf: sandbox.journal(old)) == oldBytes, "the old run's journal changed")
    }

    @Test func refusalsSayWhyAndLaunchNothing() throws {
        let sandbox = try Sandbox()
        let failed = try sandbox.run("run", "auth", "--phone", Self.phone, "--decline-terms", "--code", "123456")
        #expect(failed.status == 3, "\(failed)")
        let runs = try #require(try parseJSON(sandbox.run("runs", "--json").stdout) as? [[String: Any]])
        let old = try #require(runs.first?["id"] as? String, "\(runs)")
        let before = try FileManager.default.contentsOfDirectory(atPath: sandbox.runsDirectory.path).sorted()

        let unknown = try sandbox.run("rerun", old, "--from", "Nope")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(
            unknown.stderr.contains(
                "the run has no step 'Nope'; its steps are: /PhoneOp, VerificationScenario, VerificationScenario/PhoneOp"
            ),
            "\(unknown)")
        let ambiguous = try sandbox.run("rerun", old, "--from", "PhoneOp")
        #expect(ambiguous.status == 2, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("give one of: /PhoneOp, VerificationScenario/PhoneOp"), "\(ambiguous)")
        let unreached = try sandbox.run("rerun", old, "--from", "SaveTokenOp", "--code", "123456")
        #expect(unreached.status == 2, "\(unreached)")
        #expect(unreached.stderr.contains("never reached SaveTokenOp"), "\(unreached)")
        let missing = try sandbox.run("rerun", "20260101-000000-000-00000000", "--from", "CodeOp")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("there is no run"), "\(missing)")
        #expect(!(unknown.allOutput + unreached.allOutput).contains("SMS sent"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.runsDirectory.path).sorted() == before)
    }

    @Test func itSaysWhatItWillSendAgainAndAsksFirst() throws {
        let sandbox = try Sandbox()
        let (old, _) = try signIn(sandbox)
        let before = try FileManager.default.contentsOfDirectory(atPath: sandbox.runsDirectory.path).sorted()

        let dry = try sandbox.run("rerun", old, "--from", "CodeOp", "--dry-run", "--code", "123456")
        #expect(dry.status == 0, "\(dry)")
        #expect(
            dry.stdout
                == "A rerun of \(old) from VerificationScenario/CodeOp launches these steps with side effects anew, "
                + "as new requests:\n  VerificationScenario/CodeOp\n",
            "\(dry)")
        let harmless = try sandbox.run("rerun", old, "--from", "SaveTokenOp", "--dry-run")
        #expect(harmless.status == 0, "\(harmless)")
        #expect(harmless.stdout.contains("launches no step with side effects anew"), "\(harmless)")

        // No terminal to confirm on, and no --yes: the list and a usage error, nothing sent.
        let unconfirmed = try sandbox.run("rerun", old, "--from", "CodeOp", "--code", "123456")
        #expect(unconfirmed.status == 2, "\(unconfirmed)")
        #expect(unconfirmed.stderr.contains("  VerificationScenario/CodeOp\n"), "\(unconfirmed)")
        #expect(unconfirmed.stderr.contains("Add --yes to launch them anyway"), "\(unconfirmed)")

        let both = try sandbox.run("rerun", old, "--from", "CodeOp", "--dry-run", "--yes")
        #expect(both.status == 2, "\(both)")
        #expect(both.stderr.contains("--dry-run with --yes"), "\(both)")
        let alone = try sandbox.run("rerun", old, "--yes")
        #expect(alone.status == 2, "\(alone)")
        #expect(alone.stderr.contains("--yes goes with --from STEP"), "\(alone)")

        #expect(!(dry.allOutput + unconfirmed.allOutput + both.allOutput).contains("SMS sent"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.runsDirectory.path).sorted() == before)
    }
}
