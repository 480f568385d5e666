import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import OperationsTestSupport

/// A runner program with nothing of its own: one scenario of three steps and the runner's
/// standard commands, for the tests of the runner that need a program but not what it runs.
/// `Dust` has side effects, so the journal is synced before it is launched, as a real program's
/// is before a request.
///
/// `chores run tidy --fail` fails the last step, `Polish`; a rerun is never told to fail, so it
/// replays `Sweep` and `Dust` and finishes the run.
enum Chores: RunnerProgram {
    /// Makes the run's last step fail.
    static let fail = CommandOption("--fail", "The last step fails")

    static let configuration = RunnerConfiguration<Int>(
        name: "chores", version: "1.2", overview: "Does chores.", examples: ["chores run tidy"],
        scenarios: [ScenarioListing(name: "tidy", summary: "Sweep, dust and polish", isScenario: true)],
        shapes: { _, _ in [scenario(failing: false).shape] },
        prepareRun: { request in prepared(failing: request.arguments.has(fail)) { 1 } },
        prepareRerun: { _, record in prepared(failing: false) { try record.input(as: Int.self) } }
    ).with { program in
        program.runnableName = { ["tidy", "Tidy"].contains($0) ? "Tidy" : nil }
        program.run = RunnerConfiguration.Launch(options: [fail])
    }

    /// `Tidy`: 1 doubled by each step; `Polish` fails instead when `failing`.
    static func scenario(failing: Bool) -> Scenario<Int, Int> {
        Scenario("Tidy") { chain in
            chain
                .then(Step("Sweep") { DoubleOp() })
                .then(Step("Dust") { ScriptedOps([.success(4)]).makeWithSideEffects() })
                .then(Step("Polish") { ScriptedOps([failing ? .failure(.broken) : .success(8)]).make() })
        }
    }

    private static func prepared(failing: Bool, input: @escaping @Sendable () throws -> Int?) -> PreparedRun<Int> {
        let scenario = scenario(failing: failing)
        return PreparedRun(shape: scenario.shape, makeInput: input) { context, onFinish in
            scenario.launch(context.with(input: context.input ?? 1)) { result in
                onFinish(result.map { RunOutcome(sentence: "Tidied: \($0).") })
            }
        }
    }
}

extension InProcessRunner<Chores> {
    /// `chores` keeping its runs in `stateDirectory`.
    init(stateDirectory: URL) {
        self.init(environment: ["CHORES_STATE_DIR": stateDirectory.path])
    }
}

/// A fresh state directory for a test's runs, named after `purpose`; the test removes it.
func temporaryStateDirectory(_ purpose: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(purpose)-\(UUID().uuidString)", isDirectory: true)
}

/// The run id in the `run id: …` or `run …` lines of standard error.
func runID(in stderr: String) -> String? {
    for line in stderr.split(separator: "\n").reversed() {
        for prefix in ["run id: ", "run "] where line.hasPrefix(prefix) {
            let id = line.dropFirst(prefix.count)
            if id.count >= 20, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
                return String(id)
            }
        }
    }
    return nil
}

/// Parses one JSON value printed by `--json`.
func parseJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}
