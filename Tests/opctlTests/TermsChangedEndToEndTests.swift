import AuthFlow
import Foundation
import OperationsRunner
import Testing

@testable import opctl

/// Terms that change during a scripted run (`termsChange=code.send`): nobody can be shown the
/// new ones, so the run ends with the backend's reason and a hint that works — a rerun would
/// replay the old acceptance.
struct TermsChangedEndToEndTests {
    @Test func aScriptedRunEndsWithTheReasonAndAHintToAcceptTheNewTerms() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opctl-terms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let result = InProcessOpctl(stateDirectory: directory).run(
            "run", "auth", "--phone=+7 999 123-45-67", "--accept-terms", "--code", "123456", "--backend",
            "sim:?termsChange=code.send")

        #expect(result.status == ExitStatus.failure, "\(result)")
        #expect(result.stderr.contains("CodeOp failed: \(AuthError.termsOutdated(currentVersion: "2"))"), "\(result)")
        #expect(
            result.stderr.contains(
                "Start a new sign-in to read and accept them: opctl run auth --phone NUMBER --accept-terms"),
            "\(result)")
        #expect(!result.stderr.contains("to rerun:"), "a rerun replays the old acceptance: \(result)")
    }

    /// A hint's command reaches the run's state directory: the new sign-in it suggests carries the
    /// `--state-dir` the run was given, in the run's last lines and in `show`.
    @Test func theHintToSignInAnewCarriesTheStateDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opctl-terms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let opctl = InProcessOpctl()
        let words = "--state-dir \(directory.path)"

        let result = opctl.run(
            "run", "auth", "--phone=+7 999 123-45-67", "--accept-terms", "--code", "123456", "--backend",
            "sim:?termsChange=code.send", "--state-dir", directory.path)

        #expect(result.status == ExitStatus.failure, "\(result)")
        #expect(result.stderr.contains("--accept-terms --code CODE \(words)"), "\(result)")
        let id = try #require(runID(in: result.stderr), "\(result)")
        let shown = opctl.run("show", id, "--state-dir", directory.path)
        #expect(shown.stdout.contains("--accept-terms --code CODE \(words)"), "\(shown)")
    }

    @Test func anUnknownEndpointIsAUsageError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "opctl-terms-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let result = InProcessOpctl(stateDirectory: directory).run(
            "run", "auth", "--phone=+7 999 123-45-67", "--backend", "sim:?termsChange=nowhere")

        #expect(result.status == ExitStatus.usage, "\(result)")
        #expect(result.stderr.contains("backend option termsChange=… takes endpoints"), "\(result)")
    }
}
