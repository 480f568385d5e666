import Dispatch
import Foundation
import Operations
import OperationsTesting

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `opctl` executable, found next to the test bundle in the build products directory.
///
/// SwiftPM builds every executable target a test target depends on into the same products
/// directory as the test bundle (`.build/debug/opctl` next to `.build/debug/<Package>PackageTests.xctest`).
/// On Linux the test runner is that `.xctest` executable itself (`Bundle.main` is the products
/// directory); on macOS it is a bundle loaded by `xctest`, found among `Bundle.allBundles`.
/// `OPCTL_BINARY` overrides the search; the newest `.build*/debug/opctl` of the package (found from
/// `#filePath`) is the last resort.
enum OpctlBinary {
    /// Why the binary could not be found, with every place that was tried.
    struct NotFound: Error, CustomStringConvertible {
        let tried: [String]
        var description: String {
            "the built opctl executable was not found (build it with 'swift build --build-tests'"
                + " or set OPCTL_BINARY); looked at:\n  " + tried.joined(separator: "\n  ")
        }
    }

    /// The executable, or why there is none; searched once per test process.
    static let located: Result<URL, NotFound> = locate()

    /// The executable's URL.
    ///
    /// - Throws: ``NotFound`` naming the places tried.
    static func url() throws -> URL { try located.get() }

    private static func locate(filePath: String = #filePath) -> Result<URL, NotFound> {
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["OPCTL_BINARY"], !override.isEmpty {
            candidates.append(URL(fileURLWithPath: override))
        }
        for bundle in [Bundle.main] + Bundle.allBundles {
            let url = bundle.bundleURL
            if url.pathExtension == "xctest" {
                candidates.append(url.deletingLastPathComponent().appendingPathComponent("opctl"))
            } else {
                candidates.append(url.appendingPathComponent("opctl"))
            }
        }
        if let runner = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: runner).deletingLastPathComponent().appendingPathComponent("opctl"))
        }
        // Last resort: the newest `<package>/.build*/debug/opctl`, the package found from this file.
        let package = URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let scratch = (try? FileManager.default.contentsOfDirectory(atPath: package.path)) ?? []
        let built = scratch.filter { $0.hasPrefix(".build") }
            .map { package.appendingPathComponent($0).appendingPathComponent("debug/opctl") }
            .compactMap { url -> (URL, Date)? in
                let date = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
                return date.map { (url, $0) }
            }
        candidates += built.sorted { $0.1 > $1.1 }.map(\.0)
        var seen = Set<String>()
        candidates = candidates.filter { seen.insert($0.standardizedFileURL.path).inserted }
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) {
            return .success(found)
        }
        return .failure(NotFound(tried: candidates.map(\.path)))
    }
}

/// How one opctl process ended and what it wrote.
struct OpctlResult: Sendable, CustomStringConvertible {
    /// The exit status, or 128 + the signal number when a signal ended the process.
    let status: Int32
    /// The signal that ended the process, if one did.
    let signal: Int32?
    let stdout: String
    let stderr: String

    /// Both streams, for "never appears anywhere" checks.
    var allOutput: String { stdout + "\n" + stderr }

    /// The non-empty lines of standard error.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    var description: String {
        "exit \(status)\(signal.map { " (signal \($0))" } ?? "")\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)"
    }
}

/// A process that did not finish in time; it was killed, and this carries what it wrote so far.
struct OpctlTimeout: Error, CustomStringConvertible {
    /// How long a test waits for opctl when it names no timeout: the suite's one bound on a
    /// hang, since a child process started behind a loaded machine's queue is late, not stuck.
    static let patience = Double(TestTimeout.standard.components.seconds)

    let what: String
    let seconds: Double
    let stdout: String
    let stderr: String

    var description: String {
        "opctl timed out after \(seconds) s waiting for \(what) (killed)\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)"
    }
}

/// A fresh state directory and scratch space for one test, removed when the test drops it.
///
/// Every process it starts gets `OPCTL_STATE_DIR` set to ``stateDirectory``, `HOME` inside the
/// sandbox (so nothing reaches the real home), `NO_COLOR=1`, and standard input from a file or
/// `/dev/null` (never a terminal, so opctl never prompts).
final class Sandbox: Sendable {
    let root: URL
    let stateDirectory: URL

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("opctl-tests-\(UUID().uuidString)", isDirectory: true)
        stateDirectory = root.appendingPathComponent("state", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// The journals of this sandbox's runs.
    var runsDirectory: URL { stateDirectory.appendingPathComponent("runs", isDirectory: true) }

    /// The saved sign-in.
    var tokenFile: URL { stateDirectory.appendingPathComponent("auth-token.json") }

    /// The journal file of a run.
    func journal(_ runID: String) -> URL { runsDirectory.appendingPathComponent("\(runID).jsonl") }

    /// Runs opctl to the end.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after `opctl`.
    ///   - stdin: Standard input; `/dev/null` when `nil`.
    ///   - environment: Variables to set (or, with `nil`, remove) on top of the defaults.
    ///   - timeout: Seconds before the process is killed and the test fails.
    /// - Throws: ``OpctlTimeout`` when it did not finish in time; ``OpctlBinary/NotFound``.
    @discardableResult
    func run(
        _ arguments: String..., stdin: Data? = nil, environment: [String: String?] = [:],
        timeout: Double = OpctlTimeout.patience
    ) throws -> OpctlResult {
        try start(arguments, stdin: stdin, environment: environment).wait(timeout: timeout)
    }

    /// Starts opctl and returns at once; see ``run(_:stdin:environment:timeout:)``.
    ///
    /// - Parameter terminal: Standard input instead of `stdin`: a terminal the test types into.
    func start(
        _ arguments: [String], stdin: Data? = nil, terminal: PseudoTerminal? = nil,
        environment: [String: String?] = [:]
    ) throws -> OpctlProcess {
        var variables = ProcessInfo.processInfo.environment
        for name in ["OPCTL_STATE_DIR", "XDG_STATE_HOME", "NO_COLOR", "TERM"] { variables[name] = nil }
        variables["OPCTL_STATE_DIR"] = stateDirectory.path
        variables["HOME"] = root.appendingPathComponent("home").path
        variables["NO_COLOR"] = "1"
        for (name, value) in environment { variables[name] = value }
        return try OpctlProcess(
            executable: OpctlBinary.url(), arguments: arguments, stdin: stdin, terminal: terminal,
            environment: variables, sandbox: self)
    }
}

/// One running opctl process. Output goes to files (not pipes), so a chatty child can never block
/// on a full pipe and a pipe end inherited by a concurrently spawned process can never hold back
/// end-of-file; standard error is read as it grows.
final class OpctlProcess: Sendable {
    private let process: Process
    /// Keeps the sandbox (and so the output files) alive as long as the process is watched.
    private let sandbox: Sandbox
    private let stdoutURL: URL
    private let stderrURL: URL
    private let exited = DispatchSemaphore(value: 0)
    private let exitedOnce = LockedState(false)
    /// Kept open as long as the process is watched: a terminal closed under it reads as hung up.
    private let terminal: PseudoTerminal?

    init(
        executable: URL, arguments: [String], stdin: Data?, terminal: PseudoTerminal? = nil,
        environment: [String: String], sandbox: Sandbox
    ) throws {
        self.sandbox = sandbox
        self.terminal = terminal
        let scratch = sandbox.root
        let name = UUID().uuidString
        stdoutURL = scratch.appendingPathComponent("\(name).stdout")
        stderrURL = scratch.appendingPathComponent("\(name).stderr")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = scratch
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        if let terminal {
            process.standardInput = terminal.device
        } else if let stdin {
            let stdinURL = scratch.appendingPathComponent("\(name).stdin")
            _ = FileManager.default.createFile(atPath: stdinURL.path, contents: stdin)
            process.standardInput = try FileHandle(forReadingFrom: stdinURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        self.process = process
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// What it has written to standard output so far.
    var stdout: String { Self.read(stdoutURL) }

    /// What it has written to standard error so far.
    var stderr: String { Self.read(stderrURL) }

    /// Sends SIGINT, as Ctrl-C on a terminal does.
    func interrupt() { _ = kill(pid, SIGINT) }

    /// Sends SIGKILL: the process dies at once, leaving whatever it had written.
    func killNow() { _ = kill(pid, SIGKILL) }

    /// Waits until standard error contains `text`, reading it as it grows.
    ///
    /// - Returns: Standard error so far.
    /// - Throws: ``OpctlTimeout`` (after killing the process) when `text` does not appear in
    ///   time, or the process ends first.
    @discardableResult
    func waitForStderr(containing text: String, timeout: Double = OpctlTimeout.patience) throws -> String {
        try waitFor(text, on: "stderr", timeout: timeout) { $0.stderr }
    }

    /// Waits until standard output contains `text`, reading it as it grows (a server's banner).
    ///
    /// - Returns: Standard output so far.
    /// - Throws: ``OpctlTimeout`` as ``waitForStderr(containing:timeout:)`` does.
    @discardableResult
    func waitForStdout(containing text: String, timeout: Double = OpctlTimeout.patience) throws -> String {
        try waitFor(text, on: "stdout", timeout: timeout) { $0.stdout }
    }

    private func waitFor(
        _ text: String, on stream: String, timeout: Double, read: (OpctlProcess) -> String
    ) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let soFar = read(self)
            if soFar.contains(text) { return soFar }
            if hasExited { break }
            // Wait for the exit (or 10 ms) rather than spin; this is a poll with a deadline, not
            // a fixed sleep the test depends on.
            if exited.wait(timeout: .now() + .milliseconds(10)) == .success { exited.signal() }
        }
        let soFar = read(self)
        if soFar.contains(text) { return soFar }
        killNow()
        _ = try? wait(timeout: 10)
        throw OpctlTimeout(
            what: "'\(text)' on \(stream)\(hasExited ? " (the process ended first)" : "")", seconds: timeout,
            stdout: stdout, stderr: stderr)
    }

    /// Sends SIGTERM, as a service manager stopping a process does.
    func terminate() { _ = kill(pid, SIGTERM) }

    /// Waits for the process to end.
    ///
    /// - Throws: ``OpctlTimeout`` after killing a process that did not end in time.
    func wait(timeout: Double = OpctlTimeout.patience) throws -> OpctlResult {
        if !hasExited, exited.wait(timeout: .now() + timeout) == .timedOut {
            killNow()
            _ = exited.wait(timeout: .now() + 10)
            throw OpctlTimeout(what: "the process to exit", seconds: timeout, stdout: stdout, stderr: stderr)
        }
        exitedOnce.withLock { $0 = true }
        process.waitUntilExit()
        let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        return OpctlResult(
            status: signal.map { 128 + $0 } ?? process.terminationStatus, signal: signal, stdout: stdout,
            stderr: stderr)
    }

    private var hasExited: Bool { exitedOnce.withLock { $0 } || !process.isRunning }

    private static func read(_ url: URL) -> String {
        String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
    }
}
