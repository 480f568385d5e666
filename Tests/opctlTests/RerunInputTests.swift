import AuthFlow
import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import Testing

@testable import opctl

/// The run's input is durable with its header, and a rerun of a run that never recorded one can
/// be given it (a process killed in its first milliseconds used to leave a run no rerun could
/// finish without a terminal).
@Suite(.serialized)
struct RerunInputTests {
    private static func stateDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("opctl-rerun-input-\(UUID().uuidString)")
    }

    private static let silentConsole = Console(
        out: { _ in }, err: { _ in }, readLine: { nil }, inputIsTerminal: false, errorIsTerminal: false,
        environment: [:])

    /// A run of `auth` as a process killed right after creating its journal leaves it: a header
    /// with the shape and settings, nothing else.
    private static func killedAtBirth(in directory: URL, input: PhoneNumber? = nil) throws -> RunID {
        let runnable = try #require(RunnableScenario.named("auth"))
        let shape = runnable.shape(
            SignInServices.shapeOnlyFactory(stateDirectory: directory, console: Self.silentConsole))
        let journal = try RunStore(stateDirectory: directory).create(
            scenario: shape, settings: RunMetadata.settings(backend: "sim:", terms: .accept), input: input)
        try journal.close()
        return journal.runID
    }

    @Test func theHeaderHoldsTheInputSoARunKilledBeforeItStartedResumesWithoutAskingForIt() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let phone = try PhoneNumber(parsing: "+7 999 123-45-67")
        let id = try Self.killedAtBirth(in: directory, input: phone)
        let record = try RunStore(stateDirectory: directory).load(id)
        #expect(record.startedAt == nil)
        #expect(try record.input(as: PhoneNumber?.self) == phone)

        let result = InProcessOpctl(stateDirectory: directory).run("rerun", id.description, "--code=123456")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.hasPrefix("Signed in."))
    }

    @Test func aRunWithoutInputIsGivenOneWithPhoneAndItsHintSaysSo() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let id = try Self.killedAtBirth(in: directory)
        let opctl = InProcessOpctl(stateDirectory: directory)

        // Without a terminal nobody can type the number: the run stops, and the hint asks for it.
        let stopped = opctl.run("rerun", id.description, "--code=123456")
        #expect(stopped.status != 0, "\(stopped)")
        #expect(stopped.stderr.contains("--phone NUMBER"), "\(stopped.stderr)")

        let finished = opctl.run("rerun", id.description, "--phone=+7 999 123-45-67", "--code=123456")
        #expect(finished.status == 0, "\(finished)")
        #expect(finished.stdout.hasPrefix("Signed in."))
    }

    @Test func aRunKeepsTheNumberItStartedWith() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let id = try Self.killedAtBirth(in: directory, input: try PhoneNumber(parsing: "+7 999 123-45-67"))
        let result = InProcessOpctl(stateDirectory: directory).run(
            "rerun", id.description, "--phone=+7 999 000-00-00", "--code=123456")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("already has its phone number"))
        let bad = InProcessOpctl(stateDirectory: directory).run(
            "rerun", id.description, "--phone=call me", "--code=123456")
        #expect(bad.status == 2)
    }

    @Test func aRerunThatWillAskForTheCodeChecksForItBeforeLaunchingAnything() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let id = try Self.killedAtBirth(in: directory, input: try PhoneNumber(parsing: "+7 999 123-45-67"))
        let journal = RunStore(stateDirectory: directory).url(for: id)
        let before = try Data(contentsOf: journal)

        let missing = InProcessOpctl(stateDirectory: directory).run("rerun", id.description)
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("run \(id) still asks for --code CODE"), "\(missing)")
        #expect(missing.stderr.contains("To resume: opctl rerun \(id) --code CODE"), "\(missing)")
        #expect(
            !(missing.stdout + missing.stderr).contains("SMS sent"),
            "nothing is sent before the input is known: \(missing)")
        #expect(try Data(contentsOf: journal) == before, "nothing is journaled that did not happen")
    }

    @Test func aRerunPastTheCodeNeedsNoCode() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let opctl = InProcessOpctl(stateDirectory: directory)
        let signedIn = opctl.run("run", "auth", "--phone=+7 999 123-45-67", "--accept-terms", "--code=123456")
        #expect(signedIn.status == 0, "\(signedIn)")
        let id = try #require(try RunStore(stateDirectory: directory).summaries().first?.id)
        let dry = opctl.run("rerun", id.description, "--from", "SaveTokenOp", "--dry-run")
        #expect(dry.status == 0, "\(dry)")
    }
}
