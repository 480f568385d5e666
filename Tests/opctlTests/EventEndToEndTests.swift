import Foundation
import OperationsRunner
import Testing

/// `opctl run app --event NAME@STEP`: an event from outside posted into the running main
/// scenario, through the built binary.
@Suite(.serialized)
struct EventEndToEndTests {
    static let signIn = ["run", "app", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456"]

    /// Terms changed while the sign-in saves its token: the main scenario shows the new terms
    /// once its own steps are done, so the saved sign-in has accepted version 2 — a simulator
    /// that has only version 2 finds nothing to ask.
    @Test func termsChangedDuringTheSignInAreAcceptedBeforeTheRunEnds() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.start(Self.signIn + ["--event", "terms-changed@SaveTokenOp"]).wait()
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("Signed in."), "\(run)")
        #expect(run.stderr.contains("event terms-changed posted as SaveTokenOp launched"), "\(run)")

        let next = try sandbox.run("run", "app", "--backend", "sim:?termsVersion=2")
        #expect(next.status == 0, "\(next)")
        #expect(next.stdout.contains("Already signed in."), "\(next)")
    }

    /// Signed out on another device: the flow ends as cancelled and the saved token is gone.
    @Test func signedOutElsewhereEndsTheRunAndForgetsTheToken() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.start(Self.signIn).wait().status == 0)
        #expect(FileManager.default.fileExists(atPath: sandbox.tokenFile.path))

        let run = try sandbox.run("run", "app", "--event", "signed-out-elsewhere@CheckSessionOp")
        #expect(run.status == ExitStatus.cancelled, "\(run)")
        #expect(run.stderr.contains("the session was signed out on another device"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.tokenFile.path))
        #expect(run.stderr.contains("Sign in again: opctl run app"), "\(run)")
        #expect(!run.stderr.contains("to rerun:"), "a rerun would replay the check that found a sign-in: \(run)")
    }

    @Test(arguments: [
        (
            ["run", "app", "--event", "nope"],
            "--event: unknown event 'nope' (events: terms-changed, signed-out-elsewhere)"
        ),
        (["run", "app", "--event", "terms-changed@"], "names no step after '@'"),
        (
            ["run", "app", "--phone", "+79991234567", "--event", "terms-changed@CodeOpp"],
            "--event: no step 'CodeOpp' in AppScenario (its steps: CheckSessionOp, AuthScenario, PhoneOp,"
        ),
        (["run", "auth", "--phone", "+79991234567", "--event", "terms-changed"], "only 'opctl run app' reacts"),
    ])
    func badEventsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try Sandbox().start(arguments).wait()
        #expect(result.status == ExitStatus.usage, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }
}
