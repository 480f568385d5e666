import Foundation
import Synchronization

/// What one command line printed, run in this process by ``InProcessRunner``.
public struct CapturedRun: Sendable, CustomStringConvertible {
    /// The exit status the command would have exited with.
    public let status: Int32
    /// Everything printed to standard output.
    public let stdout: String
    /// Everything printed to standard error.
    public let stderr: String

    /// The status and both streams, for a test failure.
    public var description: String { "exit \(status)\nstdout:\n\(stdout)\nstderr:\n\(stderr)" }
}

/// Runs a runner program's command lines in this process, for tests: its streams captured, its
/// standard input scripted, its environment given (never the test process's own).
///
/// Every team that builds a runner needs this to test its program without spawning it; the
/// runner's own `RunnerMain.main(_:console:)` does the work, so what a test sees is what a person
/// would.
///
/// ```swift
/// let checkout = InProcessRunner<CheckoutProgram>(environment: ["CHECKOUT_STATE_DIR": directory])
/// let run = checkout.run("run", "checkout", "--coupon", "SAVE5")
/// #expect(run.status == 0, "\(run)")
/// ```
public struct InProcessRunner<Program: RunnerProgram>: Sendable {
    /// The environment the program sees; `NO_COLOR` keeps output plain.
    public var environment: [String: String]
    /// The lines standard input gives, in order; then end of input.
    public var input: [String]
    /// Whether standard input reads as a terminal (interactive prompts).
    public var inputIsTerminal: Bool
    /// Whether standard error reads as a terminal (colour, progress).
    public var errorIsTerminal: Bool

    /// A harness for `Program`, each parameter as its property says; `NO_COLOR=1` is added to
    /// `environment` unless given.
    public init(
        environment: [String: String] = [:], input: [String] = [], inputIsTerminal: Bool = false,
        errorIsTerminal: Bool = false
    ) {
        self.environment = environment.merging(["NO_COLOR": "1"]) { given, _ in given }
        self.input = input
        self.inputIsTerminal = inputIsTerminal
        self.errorIsTerminal = errorIsTerminal
    }

    /// Runs one command line (the arguments after the program's name).
    public func run(_ arguments: String...) -> CapturedRun { run(arguments) }

    /// Runs `body` while no in-process run of any program is under way: for a test that checks
    /// process-wide state a run changes and restores (its SIGINT handling). Runs `body` may
    /// start itself take their turn inside it.
    public static func alone<T>(_ body: () throws -> T) rethrows -> T {
        InProcessRuns.oneAtATime.lock()
        defer { InProcessRuns.oneAtATime.unlock() }
        return try body()
    }

    /// Runs one command line (the arguments after the program's name).
    public func run(_ arguments: [String]) -> CapturedRun {
        // A run installs its SIGINT handling for its length and restores it after: process-wide
        // state, so in-process runs take turns (a recursive lock: ``alone(_:)`` may hold it).
        InProcessRuns.oneAtATime.lock()
        defer { InProcessRuns.oneAtATime.unlock() }
        let stdout = Mutex("")
        let stderr = Mutex("")
        let lines = Mutex(input[...])
        let console = Console(
            out: { text in stdout.withLock { $0 += text } }, err: { text in stderr.withLock { $0 += text } },
            readLine: { lines.withLock { $0.popFirst() } }, inputIsTerminal: inputIsTerminal,
            errorIsTerminal: errorIsTerminal, environment: environment)
        let status = RunnerMain<Program>.main(arguments, console: console)
        return CapturedRun(status: status, stdout: stdout.withLock { $0 }, stderr: stderr.withLock { $0 })
    }
}

/// The turn every in-process run of any program takes.
private enum InProcessRuns {
    static let oneAtATime = NSRecursiveLock()
}
