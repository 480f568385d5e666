import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import Synchronization
import Testing

/// Polls read as polls wherever a run is shown: `show` numbers a polled step's launches as polls
/// (not "attempt 1" again and again) and its `--json` says how many polls answered.
struct PollingShowTests {
    /// A status that never settles.
    final class StatusOp: PureOp {
        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Bool>) {
            Completion(retaining: self, context: context, onFinish: onFinish).succeed(false)
        }
    }

    enum PollingProgram: RunnerProgram {
        static let configuration = RunnerConfiguration(
            name: "poller", version: "1", overview: "Polls.", examples: ["poller run settle"],
            scenarios: [ScenarioListing(name: "settle", summary: "Settle", isScenario: true)],
            shapes: { _, _ in [scenario.shape] },
            prepareRun: { _ in prepared { 1 } },
            prepareRerun: { _, record in prepared { try record.input(as: Int.self) } }
        ).with { program in
            program.commands = [RunScenario<Self>.self, ShowRun<Self>.self]
            program.runnableName = { ["settle", "Settle"].contains($0) ? "Settle" : nil }
        }

        static let scenario = Scenario<Int, Bool>("Settle") { chain in
            chain.then(Step("Status") { StatusOp() }, repeatingEvery: .zero, until: { $0 }, atMost: 3)
        }

        private static func prepared(input: @escaping @Sendable () throws -> Int?) -> PreparedRun<Int> {
            PreparedRun(shape: scenario.shape, makeInput: input) { context, onFinish in
                scenario.launch(context.with(input: context.input ?? 1)) { result in
                    onFinish(result.map { RunOutcome(sentence: "Settled: \($0).") })
                }
            }
        }
    }

    private func poller(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let out = Mutex("")
        let err = Mutex("")
        let console = Console(
            out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } },
            readLine: { nil }, inputIsTerminal: false, errorIsTerminal: false, environment: ["NO_COLOR": "1"])
        let status = RunnerMain<PollingProgram>.main(arguments, console: console)
        return (status, out.withLock { $0 }, err.withLock { $0 })
    }

    @Test func showNumbersThePollsOfAPolledStep() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("polling-show-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = poller(["run", "settle", "--state-dir", directory.path, "--json"])
        #expect(run.status == ExitStatus.failure, "out of polls: \(run.stdout)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        let id = try #require(object?["id"] as? String)
        // The progress numbers the polls as `show` does, from the same rule (`RunHistory`).
        #expect(run.stderr.contains("Status: poll 1 succeeded"), "\(run.stderr)")
        #expect(run.stderr.contains("Status: poll 3 succeeded"), "\(run.stderr)")
        #expect(!run.stderr.contains("attempt 1"), "\(run.stderr)")

        let shown = poller(["show", id, "--state-dir", directory.path])
        #expect(shown.stdout.contains("  poll 1: succeeded"), "\(shown.stdout)")
        #expect(shown.stdout.contains("  poll 3: succeeded"), "\(shown.stdout)")
        #expect(!shown.stdout.contains("attempt 1"), "\(shown.stdout)")

        let json = poller(["show", id, "--state-dir", directory.path, "--json"])
        let steps = try #require(
            (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["steps"]
                as? [[String: Any]])
        #expect(steps.first?["polls"] as? Int == 3, "three polls made: \(steps)")
    }
}
