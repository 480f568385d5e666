import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import Testing

@testable import opctl

/// `opctl check` answers, before a new build replaces the one that started the runs waiting in
/// the state directory, which of them it could not resume.
@Suite(.serialized)
struct CheckCommandTests {
    private static func stateDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("opctl-check-\(UUID().uuidString)")
    }

    /// A journal of `auth` as an older build wrote it: `steps` in its shape, and the run stopped
    /// after launching the step at `reached`.
    private static func journal(in directory: URL, steps: [String], reached: Int) throws -> RunID {
        let shape = ScenarioShape(
            name: "auth",
            steps: steps.enumerated().map { index, name in
                .init(index: index, name: name, input: "X", output: "X", purity: "pure", conditional: false)
            })
        let journal = try RunStore(stateDirectory: directory).create(scenario: shape)
        for index in 0...reached {
            journal.scenario(
                ScenarioEvent(
                    kind: .stepLaunched, scenario: "auth",
                    address: StepAddress(path: [.init(index: index, name: steps[index])]), attempt: 1, duration: nil,
                    value: nil, purity: .pure))
        }
        try journal.close()
        return journal.runID
    }

    @Test func aRunThisBuildCannotResumeIsNamedWithTheStepThatDiffersAndExitsOne() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let opctl = InProcessOpctl(stateDirectory: directory)
        let signedIn = opctl.run("run", "auth", "--phone=+7 999 123-45-67", "--accept-terms", "--code=123456")
        #expect(signedIn.status == 0, "\(signedIn)")
        let all = opctl.run("check")
        #expect(all.status == 0, "\(all)")
        // Every run it counted, by id with its status, then the counts (issue 36).
        let finished = try #require(runID(in: signedIn.stderr), "\(signedIn)")
        #expect(
            all.stdout
                == "  \(finished) (auth, succeeded): finished\n"
                + "1 run checked: 0 can be resumed, 1 finished, 0 cannot be resumed by this build\n")

        let stranded = try Self.journal(in: directory, steps: ["PhoneOp", "PromoOp"], reached: 1)
        let result = opctl.run("check")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.contains("2 runs checked: 0 can be resumed, 1 finished, 1 cannot be resumed by this build"))
        let strandedLine = "  \(stranded) (auth, interrupted): cannot be resumed: step 1: PhoneOp takes X -> X"
        #expect(result.stdout.contains(strandedLine), "\(result)")
        #expect(result.stdout.contains("  \(finished) (auth, succeeded): finished\n"), "\(result)")
        // Listed where it stands, and again after the counts, where a long listing ends.
        #expect(result.stdout.components(separatedBy: strandedLine).count == 3, "\(result)")

        let json = opctl.run("check", "--json")
        #expect(json.status == 1)
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let entry = try #require(objects.first { $0["id"] as? String == stranded.description })
        #expect(entry["resumable"] as? Bool == false)
        #expect((entry["reason"] as? String)?.hasPrefix("step 1:") == true)
    }

    @Test func rerunOfARunThisBuildCannotResumeExitsTwoAndWritesNothing() throws {
        let directory = Self.stateDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let opctl = InProcessOpctl(stateDirectory: directory)
        let id = try Self.journal(in: directory, steps: ["PhoneOp", "PromoOp"], reached: 1)
        let url = RunStore(stateDirectory: directory).url(for: id)
        let before = try Data(contentsOf: url)

        let result = opctl.run("rerun", id.description, "--code=123456")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("cannot resume run \(id)"), "\(result.stderr)")
        #expect(result.stderr.contains("step 1: PhoneOp takes X -> X in the journal"), "\(result.stderr)")
        #expect(result.stderr.contains("Resume it with the opctl build that started it"))
        #expect(!result.stderr.contains("PhoneOp: attempt"), "a step was launched")
        #expect(try Data(contentsOf: url) == before)
    }
}
