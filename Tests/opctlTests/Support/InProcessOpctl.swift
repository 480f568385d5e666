import Foundation
import Operations
import OperationsRunner
import Testing

@testable import opctl

/// Runs opctl in this process through ``Opctl/main(_:console:)`` with a ``Console`` whose streams
/// are captured, standard input scripted, and environment given (never the test process's own).
struct InProcessOpctl {
    /// What one in-process command line produced.
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    var environment: [String: String] = ["NO_COLOR": "1"]
    var stdinLines: [String] = []
    var inputIsTerminal = false
    /// Whether standard error reads as a terminal (colour, and the simulated SMS).
    var errorIsTerminal = false

    /// Runs one command line.
    func run(_ arguments: String...) -> Result { run(arguments) }

    /// One in-process run at a time across the whole test process: a run installs its own
    /// SIGINT handling and restores it, which is process-wide state; a test that checks it was
    /// restored holds this around its run (``alone(_:)``). Recursive, so that test's own run
    /// takes it again on the same thread.
    private static let processWide = NSRecursiveLock()

    /// Runs `body` with no other in-process run under way.
    static func alone<T>(_ body: () throws -> T) rethrows -> T {
        processWide.lock()
        defer { processWide.unlock() }
        return try body()
    }

    /// Runs one command line.
    func run(_ arguments: [String]) -> Result {
        Self.processWide.lock()
        defer { Self.processWide.unlock() }
        let stdout = LockedState("")
        let stderr = LockedState("")
        let input = LockedState(stdinLines[...])
        let console = Console(
            out: { text in stdout.withLock { $0 += text } },
            err: { text in stderr.withLock { $0 += text } },
            readLine: { input.withLock { $0.popFirst() } },
            inputIsTerminal: inputIsTerminal,
            errorIsTerminal: errorIsTerminal,
            environment: environment)
        let status = Opctl.main(arguments, console: console)
        return Result(status: status, stdout: stdout.withLock { $0 }, stderr: stderr.withLock { $0 })
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
