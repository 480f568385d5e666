import Dispatch
import LoopbackHTTP
import OperationsJournal
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `PROGRAM ui`: the runs of the state directory as web pages on 127.0.0.1 (`WebRoutes`), for
/// every runner program, until Ctrl-C or SIGTERM. Read-only: it never launches, reruns or prunes.
///
/// It listens on the loopback address only, and the pages answer only requests addressed to it,
/// so neither another machine nor another site open in the browser can read a run.
public enum ServeRuns<Program: RunnerProgram>: Command {
    /// `ui`.
    public static var name: String { "ui" }
    /// The line of the program's help.
    public static var abstract: String { "Serve the runs and their diagrams as web pages on 127.0.0.1" }
    /// The port without `--port`: fixed so a bookmark keeps working; beside `opctl serve`'s 8080
    /// so the two run together.
    static var defaultPort: UInt16 { 8081 }
    /// `--port N`.
    static var portOption: CommandOption {
        CommandOption(
            "--port", value: "N",
            "The TCP port on 127.0.0.1 (default \(defaultPort), a free one when it is taken);\n0 picks a free one")
    }
    /// `--port` and `--state-dir`, each declared once for the parser, the usage line and the help.
    public static var options: [CommandOption] { [portOption, Program.configuration.stateDir] }
    /// ``options``.
    public static var spec: ArgumentSpec { ArgumentSpec(options) }
    /// The text of `PROGRAM help ui`.
    public static var help: String {
        """
        \(HelpText.usage("\(Program.configuration.name) ui", CommandOption.usage(of: options)))

        Serves the runs as web pages on 127.0.0.1, for a browser on this machine: the runs, newest
        first, filtered as 'runs' filters them, and each run's steps as 'show' prints them beside
        its message diagram drawn as SVG at a chosen step and depth, with links to its text,
        PlantUML, Mermaid and SVG forms; a running run's page follows it. It only reads: it never
        launches, reruns or prunes a run. It answers only requests addressed to 127.0.0.1 or
        localhost at its port, and runs until Ctrl-C or SIGTERM.

        OPTIONS:
        \(options.map(\.helpLine).joined(separator: "\n"))

        OUTPUT: the first line, on standard output, is 'Serving the runs of \(Program.configuration.name) at
        http://127.0.0.1:PORT/ (Ctrl-C stops)'.
        """
    }

    /// Serves until Ctrl-C or SIGTERM.
    ///
    /// - Returns: ``ExitStatus/success`` once stopped.
    /// - Throws: ``UsageError`` for a bad `--port`, ``CLIError`` when the port cannot be listened on.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let text = arguments.value(portOption)
        guard let port = text.map({ UInt16($0) }) ?? defaultPort else {
            throw UsageError("--port: give a number from 0 to 65535 (0 picks a free port)", command: name)
        }
        let configuration = Program.configuration
        // Trapped before the first line: once it promises Ctrl-C, Ctrl-C stops the server cleanly.
        let stopRequested = DispatchSemaphore(value: 0)
        let trap = SignalTrap([SIGINT, SIGTERM]) { _ in stopRequested.signal() }
        defer { trap.stop() }

        let store = configuration.runStore(configuration.stateDirectory(arguments, console))
        let directoryOption = configuration.stateDirectoryOption(arguments)
        let server: HTTPServer
        do throws(HTTPServerError) {
            server = try listen(port, store: store, stateDirectoryOption: directoryOption)
        } catch .addressInUse where text == nil {
            server = try listen(0, store: store, stateDirectoryOption: directoryOption)
        } catch {
            throw CLIError.message("cannot serve the runs: \(error)")
        }
        console.print("Serving the runs of \(configuration.name) at http://127.0.0.1:\(server.port)/ (Ctrl-C stops)")
        stopRequested.wait()
        server.stop()
        return ExitStatus.success
    }

    /// A server of `WebRoutes` on 127.0.0.1:`port`: at most 64 connections, `readTimeout` to
    /// send a request (else `408`), 8 KiB of head, GET and HEAD only. Pages are made one at a time
    /// on a queue of their own, so the server's thread only moves bytes and a slow page holds no
    /// connection but its own; one at a time, so two pages never read the run store's index at once.
    static func listen(
        _ port: UInt16, store: RunStore, stateDirectoryOption: String?, readTimeout: Duration = .seconds(10)
    ) throws(HTTPServerError) -> HTTPServer {
        let pages = DispatchQueue(label: "\(Program.configuration.name) ui pages")
        let listening = ListeningPort()
        let limits = HTTPServer.Limits(
            readTimeout: readTimeout, answerTimeout: .seconds(60), maxHeaderBytes: 8 * 1024, maxBodyBytes: 0,
            maxConnections: 64, methods: ["GET", "HEAD"])
        let answer: HTTPServer.Handler = { exchange in
            pages.async {
                let port = listening.port.load(ordering: .acquiring)
                let routes = WebRoutes<Program>(store: store, port: port, stateDirectoryOption: stateDirectoryOption)
                exchange.respond(routes.response(to: exchange.request))
            }
        }
        let server = try HTTPServer(
            host: "127.0.0.1", port: port, limits: limits, refusal: WebRoutes<Program>.refusal, answering: answer)
        // Before anyone is told the port; a request before that names no port it could know.
        listening.port.store(server.port, ordering: .releasing)
        return server
    }
}

/// The port a server listens on, known only once it listens, for the `Host` check of its
/// handler, made before.
private final class ListeningPort: Sendable {
    let port = Atomic<UInt16>(0)
}
