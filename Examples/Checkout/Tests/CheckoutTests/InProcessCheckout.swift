import OperationsRunner
import Synchronization

@testable import checkout

/// Runs the `checkout` command in this process, through the runner's `RunnerMain`, with its
/// streams captured and an environment of its own (never the test process's).
enum InProcessCheckout {
    /// What one command line printed.
    struct Printed: CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String

        var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
    }

    /// Runs one command line.
    static func run(_ arguments: [String]) -> Printed {
        let out = Mutex("")
        let err = Mutex("")
        let console = Console(
            out: { text in out.withLock { $0 += text } }, err: { text in err.withLock { $0 += text } },
            readLine: { nil }, inputIsTerminal: false, errorIsTerminal: false, environment: ["NO_COLOR": "1"])
        let status = RunnerMain<CheckoutProgram>.main(arguments, console: console)
        return Printed(status: status, stdout: out.withLock { $0 }, stderr: err.withLock { $0 })
    }
}
