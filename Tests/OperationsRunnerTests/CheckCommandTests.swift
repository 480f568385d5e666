import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import Testing

/// `check` answers, before a new build replaces the one that started the runs waiting in
/// the state directory, which of them it could not resume.
@Suite(.serialized)
struct CheckCommandTests {
    /// A journal of `Tidy` as an older build wrote it: `steps` in its shape, and the run stopped
    /// after launching the step at `reached`.
    private static func journal(in directory: URL, steps: [String], reached: Int) throws -> RunID {
        let shape = ScenarioShape(
            name: "Tidy",
            steps: steps.enumerated().map { index, name in
                .init(index: index, name: name, input: "X", output: "X", purity: "pure", conditional: false)
            })
        let journal = try RunStore(stateDirectory: directory).create(scenario: shape)
        for index in 0...reached {
            journal.scenario(
                ScenarioEvent(
                    kind: .stepLaunched, scenario: "Tidy",
                    address: StepAddress(path: [.init(index: index, name: steps[index])]), attempt: 1, duration: nil,
                    value: nil, purity: .pure))
        }
        try journal.close()
        return journal.runID
    }

    @Test func aRunThisBuildCannotResumeIsNamedWithTheStepThatDiffersAndExitsOne() throws {
        let directory = temporaryStateDirectory("runner-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chores = InProcessRunner<Chores>(stateDirectory: directory)
        let tidied = chores.run("run", "tidy")
        #expect(tidied.status == 0, "\(tidied)")
        let all = chores.run("check")
        #expect(all.status == 0, "\(all)")
        // Every run it counted, by id with its status, then the counts (issue 36).
        let finished = try #require(runID(in: tidied.stderr), "\(tidied)")
        #expect(
            all.stdout
                == "  \(finished) (Tidy, succeeded): finished\n"
                + "1 run checked: 0 can be resumed, 1 finished, 0 cannot be resumed by this build\n")

        let stranded = try Self.journal(in: directory, steps: ["Sweep", "Scrub"], reached: 1)
        let result = chores.run("check")
        #expect(result.status == 1, "\(result)")
        #expect(
            result.stdout.contains("2 runs checked: 0 can be resumed, 1 finished, 1 cannot be resumed by this build"))
        let strandedLine = "  \(stranded) (Tidy, interrupted): cannot be resumed: step 1: Sweep takes X -> X"
        #expect(result.stdout.contains(strandedLine), "\(result)")
        #expect(result.stdout.contains("  \(finished) (Tidy, succeeded): finished\n"), "\(result)")
        // Listed where it stands, and again after the counts, where a long listing ends.
        #expect(result.stdout.components(separatedBy: strandedLine).count == 3, "\(result)")

        let json = chores.run("check", "--json")
        #expect(json.status == 1)
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        let entry = try #require(objects.first { $0["id"] as? String == stranded.description })
        #expect(entry["resumable"] as? Bool == false)
        #expect((entry["reason"] as? String)?.hasPrefix("step 1:") == true)
    }

    @Test func rerunOfARunThisBuildCannotResumeExitsTwoAndWritesNothing() throws {
        let directory = temporaryStateDirectory("runner-check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chores = InProcessRunner<Chores>(stateDirectory: directory)
        let id = try Self.journal(in: directory, steps: ["Sweep", "Scrub"], reached: 1)
        let url = RunStore(stateDirectory: directory).url(for: id)
        let before = try Data(contentsOf: url)

        let result = chores.run("rerun", id.description)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("cannot resume run \(id)"), "\(result.stderr)")
        #expect(result.stderr.contains("step 1: Sweep takes X -> X in the journal"), "\(result.stderr)")
        #expect(result.stderr.contains("Resume it with the chores build that started it"))
        #expect(!result.stderr.contains("Sweep: attempt"), "a step was launched")
        #expect(try Data(contentsOf: url) == before)
    }
}
