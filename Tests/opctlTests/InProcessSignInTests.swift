import AuthSimulator
import Foundation
import OperationsRunner
import Testing

@testable import opctl

/// Whole sign-ins in this process through the injected ``Console``, scripted answers for a
/// terminal. (That a run in process gives SIGINT back as it found it is OperationsRunnerTests'
/// InProcessRunnerTests.) Serialized: a run changes how this process handles SIGINT while it lasts.
@Suite(.serialized)
struct InProcessSignInTests {
    @Test func signInRunsInProcessWithTheCodeFromStandardInput() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var opctl = InProcessOpctl(stateDirectory: directory)
        opctl.stdinLines = ["123456"]
        let result = opctl.run("run", "auth", "--phone=+7 999 123-45-67", "--accept-terms", "--code-stdin")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Signed in.\nAuth token "), "\(result)")
        #expect(result.stderr.contains("CodeOp: attempt 1 succeeded"))
    }

    @Test func interactiveRunPromptsAndAsksAgainAfterBadAnswers() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var opctl = InProcessOpctl(stateDirectory: directory)
        opctl.inputIsTerminal = true
        opctl.errorIsTerminal = true
        opctl.environment["NO_COLOR"] = "1"
        opctl.stdinLines = ["call me", "+7 999 123-45-67", "maybe", "y", "12", "000000", "123456"]

        let result = opctl.run("run", "auth")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("cannot contain letters"), "\(result.stderr)")
        #expect(result.stderr.contains("Please answer y or n."))
        #expect(result.stderr.contains("your code is 123456"), "the simulated SMS is shown on a terminal")
        #expect(result.stderr.contains("Wrong code. 2 attempts left."), "\(result.stderr)")
        #expect(result.stderr.contains("CodeOp: attempt 2 succeeded"), "a wrong code is asked again")
        #expect(result.stdout.hasPrefix("Signed in."))
    }

    @Test func aRerunAsksForTheCodeAfreshWithoutTheEarlierRunsReason() throws {
        // Issue 28: the rerun of a run that ended while the code was asked again showed the
        // earlier attempt's "Wrong code." for a fresh ask.
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var opctl = InProcessOpctl(stateDirectory: directory)
        opctl.inputIsTerminal = true
        opctl.errorIsTerminal = true
        opctl.stdinLines = ["+7 999 123-45-67", "y", "000000"]
        let first = opctl.run("run", "auth")
        #expect(first.status != 0, "\(first)")
        #expect(first.stderr.contains("Wrong code."), "the run itself asked again with the reason: \(first.stderr)")
        let id = try #require(
            first.stderr.split(separator: "\n").first { $0.hasPrefix("run id: ") }.map { String($0.dropFirst(8)) },
            "\(first)")

        // The simulator of this second process no longer knows the first one's code, so the
        // answer is refused; what matters is how the question was put.
        opctl.stdinLines = ["123456"]
        let rerun = opctl.run("rerun", id)
        #expect(rerun.stderr.contains("Enter the 6-digit code"), "the code was asked again: \(rerun)")
        #expect(!rerun.stderr.contains("Wrong code."), "\(rerun.stderr)")
    }

    @Test func theSimulatedSMSStaysOutOfRedirectedErrorOutput() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var opctl = InProcessOpctl(stateDirectory: directory)
        opctl.inputIsTerminal = true
        opctl.stdinLines = ["123456"]

        let result = opctl.run("run", "auth", "--phone=+7 999 123-45-67", "--accept-terms")
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("your code is"), "the code leaked into redirected error output")
        #expect(result.stderr.contains("code hidden"))
    }

    @Test func interactiveRunEndsCleanlyWhenInputEnds() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var opctl = InProcessOpctl(stateDirectory: directory)
        opctl.inputIsTerminal = true
        opctl.stdinLines = ["+7 999 123-45-67", "y"]

        let result = opctl.run("run", "auth")
        #expect(result.status == ExitStatus.cancelled, "\(result)")
        #expect(result.stderr.contains("sign-in cancelled: the SMS code was not entered"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A fresh state directory for one in-process run; the caller removes it.
    private static func stateDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("opctl-inproc-\(UUID().uuidString)")
    }
}
