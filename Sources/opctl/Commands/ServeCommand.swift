import AuthFlow
import AuthSimulator
import Dispatch
import LoopbackHTTP
import Operations
import OperationsRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `opctl serve`: the embedded simulated backend as a real HTTP/1.1 server, so curl, a second
/// opctl (`--backend http://…`) or an app under development can sign in against Docs/HTTP-API.md
/// without a real backend. Runs until Ctrl-C or SIGTERM.
enum ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Serve the simulated sign-in backend over HTTP until Ctrl-C"
    /// The port when `--port` is not given: a usual development port, stable so scripts and
    /// bookmarks keep working.
    static let defaultPort: UInt16 = 8080
    static let defaultHost = "127.0.0.1"
    /// Its options, each declared once: the parser, the usage line and the help lines.
    static let options = [port, host, backend]
    static let port = CommandOption(
        "--port", value: "N", "The TCP port (default \(defaultPort)); 0 picks a free one, shown on start")
    static let host = CommandOption(
        "--host", value: "ADDRESS",
        """
        The IP address to listen on (default \(defaultHost): this machine only).
        Another address, such as 0.0.0.0, lets other machines sign in
        with the simulator's well-known code; opctl warns
        """)
    /// `--backend SPEC`, the simulator's options only.
    static let backend = SignInOptions.backend.described(
        "sim: (default) — the simulator's options, as for 'opctl run':\n\(SignInOptions.simulatorExample)")
    static let help = """
        \(HelpText.usage("opctl serve", CommandOption.usage(of: options)))

        Serves the embedded simulated backend as an HTTP/1.1 server that answers the contract of
        Docs/HTTP-API.md, so curl, an app under development or another opctl can sign in against
        it ('opctl run auth ... --backend http://127.0.0.1:8080'). It runs until Ctrl-C or SIGTERM.

        OPTIONS:
        \(options.map(\.helpLine).joined(separator: "\n"))

        OUTPUT: the first line, on standard output, is 'serving the simulated sign-in backend on
        http://127.0.0.1:PORT (Ctrl-C to stop)'. Then standard error gets one line per request —
        method, path, status, milliseconds, never a body, token, code or idempotency key — and
        one per simulated SMS (its code shown only on a terminal).

        \(ExitStatus.helpSection(exitStatuses))
        """
    /// What serve's statuses mean: the runner's codes, in a server's words.
    static let exitStatuses = [
        ExitStatus.Meaning(ExitStatus.success, "stopped by Ctrl-C or SIGTERM"),
        ExitStatus.Meaning(ExitStatus.failure, "the address cannot be listened on (the port is in use, say)"),
        ExitStatus.Meaning(ExitStatus.usage, "usage error"),
    ]
    static let spec = ArgumentSpec(options)

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let port = try parsePort(arguments.value(Self.port))
        let host = arguments.value(Self.host) ?? defaultHost
        guard HTTPServer.isLoopback(host: host) != nil else { throw startFailure(.invalidHost(host), port: port) }
        guard
            case .simulator(let options) = try BackendSpec(
                parsing: arguments.value(Self.backend) ?? BackendSpec.defaultSpec)
        else {
            throw UsageError(
                "--backend: serve runs the embedded simulator; give 'sim:' with options, not a server URL",
                command: name)
        }

        // Trapped before the banner: once it promises Ctrl-C, Ctrl-C stops the server cleanly.
        let stopRequested = DispatchSemaphore(value: 0)
        let trap = SignalTrap([SIGINT, SIGTERM]) { _ in stopRequested.signal() }
        defer { trap.stop() }

        let backend = SimulatedBackend(
            configuration: options.configuration(onSMS: SignInServices.simulatedInbox(console)))
        let server: HTTPServer
        do throws(HTTPServerError) {
            server = try HTTPServer(serving: backend, host: host, port: port) { entry in console.note(entry.description)
            }
        } catch {
            throw startFailure(error, port: port)
        }
        if let warning = exposureWarning(host: server.host) { console.note(warning) }
        console.print("serving the simulated sign-in backend on \(server.baseURL) (Ctrl-C to stop)")

        stopRequested.wait()
        server.stop()
        console.note(console.styled("stopped", .dim))
        return ExitStatus.success
    }

    /// A port from 0 to 65535; the default when not given.
    static func parsePort(_ text: String?) throws -> UInt16 {
        guard let text else { return defaultPort }
        guard let port = UInt16(text) else {
            throw UsageError("--port: give a number from 0 to 65535 (0 picks a free port)", command: name)
        }
        return port
    }

    /// The warning for a server other machines can reach, `nil` for a loopback address: the
    /// simulator signs in anyone who knows its fixed code, and its tokens are signed with a
    /// published development key.
    static func exposureWarning(host: String) -> String? {
        guard HTTPServer.isLoopback(host: host) == false else { return nil }
        return "opctl: warning: listening on \(host), which other machines can reach; the simulator signs in "
            + "anyone with its fixed code and a public development key. Use --host 127.0.0.1 unless you mean it."
    }

    /// Why the server did not start, as the user sees it: a bad `--host` is a usage error (2),
    /// an address that cannot be listened on is a failure (1) with what to do instead.
    private static func startFailure(_ error: HTTPServerError, port: UInt16) -> any Error {
        switch error {
        case .invalidHost(let host):
            return UsageError(
                "--host: '\(ParsedArguments.clip(host))' is not an IP address (use e.g. 127.0.0.1, ::1 or 0.0.0.0)",
                command: name)
        case .addressInUse(let host, let port):
            let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            return CLIError.message(
                "cannot serve on \(address): the port is already in use (another 'opctl serve'?); "
                    + "choose another --port, or --port 0 for a free one")
        default:
            return CLIError.message("cannot serve on port \(port): \(error)")
        }
    }
}
