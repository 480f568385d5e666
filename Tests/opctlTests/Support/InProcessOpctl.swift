import Foundation
import Operations
import OperationsRunner
import Testing

@testable import opctl

/// Runs opctl in this process through the runner's own harness (``InProcessRunner``), with its
/// streams captured, standard input scripted, and environment given (never the test process's
/// own).
struct InProcessOpctl {
    /// What one in-process command line produced.
    typealias Result = CapturedRun

    var environment: [String: String] = ["NO_COLOR": "1"]
    var stdinLines: [String] = []
    var inputIsTerminal = false
    /// Whether standard error reads as a terminal (colour, and the simulated SMS).
    var errorIsTerminal = false

    /// Runs one command line.
    func run(_ arguments: String...) -> Result { run(arguments) }

    /// Runs one command line.
    func run(_ arguments: [String]) -> Result {
        var runner = InProcessRunner<Opctl>(
            input: stdinLines, inputIsTerminal: inputIsTerminal, errorIsTerminal: errorIsTerminal)
        // Exactly the environment given: a test that leaves NO_COLOR out sees colour.
        runner.environment = environment
        return runner.run(arguments)
    }
}

/// Parses one JSON value printed by `--json`.
func parseJSON(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// The keys every run object of `runs --json`, `show --json` and `run --json` carries.
let requiredRunKeys: Set<String> = ["id", "scenario", "status", "failedStep", "startedAt"]

/// The statuses a run object may have.
let runStatuses: Set<String> = ["succeeded", "failed", "cancelled", "interrupted", "running"]

/// The run id in `run id: …` / `run …` lines of standard error.
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

/// A test argument that may be very long; test reports show its start and length, not 10 kB.
struct Sample: Sendable, CustomTestStringConvertible {
    let text: String

    init(_ text: String) { self.text = text }

    var testDescription: String {
        text.count <= 40 ? text.debugDescription : "\(text.prefix(16).debugDescription)… (\(text.count) characters)"
    }
}

extension InProcessOpctl {
    /// An in-process opctl keeping its runs in `stateDirectory`.
    init(stateDirectory: URL) {
        self.init()
        environment["OPCTL_STATE_DIR"] = stateDirectory.path
    }
}
