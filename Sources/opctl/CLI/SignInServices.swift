import AuthFlow
import AuthSimulator
import Foundation
import Operations
import OperationsRunner

// Apple platforms only: Package.swift links AuthFlowURLSession there and not on Linux (where
// its module is still built for the tests, so `canImport` cannot tell).
#if canImport(Darwin)
    import AuthFlowURLSession
#endif

/// The key services of one opctl run, assembled from the command line: the backend (simulator or
/// server), the saved sign-in, the terminal screens, and the factory that makes the operations.
struct SignInServices {
    let factory: AuthFlowFactory
    let screens: TerminalScreens
    let storage: FileLocalStorage
    let simulator: SimulatedBackend?
    /// Where the simulator keeps its state; `nil` for a server, or a simulator that keeps none.
    let simulatorState: SimulatorStateFile?
    /// Where notes go (an injected event, the simulated SMS).
    let console: Console

    static func tokenFile(in stateDirectory: URL) -> URL {
        stateDirectory.appendingPathComponent("auth-token.json")
    }

    /// The simulated phone's inbox, for `run` and `serve` alike: the code is shown only to a
    /// person at a terminal (input and error output both), who has to type it; never in logs or
    /// piped output.
    static func simulatedInbox(_ console: Console) -> @Sendable (SimulatedSMS) -> Void {
        { sms in
            if console.inputIsTerminal && console.errorIsTerminal {
                console.note(console.styled("📱 SMS to \(sms.phone): your code is \(sms.code.revealed)", .yellow))
            } else {
                console.note(console.styled("📱 SMS sent to \(sms.phone) (code hidden: not a terminal)", .dim))
            }
        }
    }

    /// A factory whose operations are made only to read their scenarios' shapes (`check`):
    /// the default simulator, keeping no state, and screens that are never shown.
    static func shapeOnlyFactory(stateDirectory: URL, console: Console) -> AuthFlowFactory {
        SignInServices(
            backend: .simulator(BackendSpec.Simulator()), stateDirectory: stateDirectory,
            screens: TerminalScreens(console: console, terms: nil, codes: []), console: console, simulatorState: nil
        ).factory
    }

    /// The services of a run or a rerun: the embedded simulator keeps its state in the state
    /// directory (``SimulatorStateFile``), so a rerun in a new process meets the backend this
    /// one leaves.
    ///
    /// The state's folder is made by ``SignInExecution`` once the state directory exists, so a
    /// usage error leaves nothing behind.
    static func forRun(backend: BackendSpec, stateDirectory: URL, screens: TerminalScreens, console: Console)
        -> SignInServices
    {
        var state: SimulatorStateFile?
        if case .simulator = backend { state = SimulatorStateFile(stateDirectory: stateDirectory) }
        return SignInServices(
            backend: backend, stateDirectory: stateDirectory, screens: screens, console: console, simulatorState: state)
    }

    /// How the simulator's state problems read: dim, as a note beside the run, naming the file
    /// and the reason, never the state.
    static func stateProblemNote(_ file: URL, _ console: Console) -> @Sendable (SimulatorStateProblem) -> Void {
        { problem in
            let text =
                switch problem {
                case .startedAfresh(let reason):
                    "opctl: the simulated backend's state in \(file.path) \(reason); it started afresh"
                case .notStored(let error):
                    "opctl: the simulated backend could not store its state (\(error)); it answered 503"
                }
            console.note(console.styled(text, .dim))
        }
    }

    private static func transport(for url: URL) -> any HTTPTransport {
        let plain: PlainHTTPTransport
        do {
            plain = try PlainHTTPTransport(baseURL: url)
        } catch {
            #if canImport(Darwin)
                // Apple platforms (Package.swift links it there): URLSession is part of Foundation.
                return URLSessionTransport(baseURL: url)
            #else
                // Linux: BackendSpec refuses https:// before a run starts, so no URL it passes
                // gets here; were one to, each request would say why it was not sent.
                return RefusedURL(reason: error.description)
            #endif
        }
        return plain
    }

    /// A transport that sends nothing and answers every request with why.
    private struct RefusedURL: HTTPTransport {
        let reason: String

        func send(
            _ request: HTTPRequest, cancellation: CancellationToken?,
            completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void
        ) {
            completion(.failure(.unreachable(reason: reason)))
        }
    }

    init(
        backend: BackendSpec, stateDirectory: URL, screens: TerminalScreens, console: Console,
        simulatorState: SimulatorStateFile?
    ) {
        self.console = console
        self.simulatorState = simulatorState
        let transport: any HTTPTransport
        switch backend {
        case .simulator(let options):
            var configuration = options.configuration(onSMS: Self.simulatedInbox(console))
            if let simulatorState {
                configuration.stateStore = simulatorState
                configuration.onStateProblem = Self.stateProblemNote(simulatorState.file, console)
            }
            let simulator = SimulatedBackend(configuration: configuration)
            self.simulator = simulator
            transport = simulator
        case .server(let url):
            simulator = nil
            // http:// over a socket of opctl's own, which never sends a request twice by itself;
            // https:// over URLSession, the only TLS without a dependency (URLSessionTransport
            // says what it does to keep a POST from being sent twice), where opctl links it.
            transport = Self.transport(for: url)
        }
        let storage = FileLocalStorage(fileURL: Self.tokenFile(in: stateDirectory))
        self.storage = storage
        self.screens = screens
        self.factory = AuthFlowFactory(
            api: HTTPAuthAPI(transport: transport, timeout: .seconds(10)), storage: storage, screens: screens,
            retry: .transient(maxAttempts: 3, backoff: Backoff(initial: .milliseconds(200), cap: .seconds(2))),
            asksAgain: console.inputIsTerminal)
    }
}
