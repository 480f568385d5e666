import OperationsRunner

/// opctl's command table, top-level help and version; ``OpctlProgram.swift`` says what it runs.
/// The runner's ``RunnerMain`` does the rest, and `main.swift` only calls it, so tests run
/// commands in-process through ``main(_:console:)``.
enum Opctl {
    /// The program's name: in hints, the state directory's variable and folder, and messages.
    static let name = "opctl"
    static let version = "0.2.0"

    static var commands: [any Command.Type] {
        [
            RunCommand.self, RerunCommand.self, RunsCommand.self, ShowCommand.self, PruneCommand.self,
            CheckCommand.self, ExploreCommand.self, DiagramCommand.self, OpsCommand.self, ServeCommand.self,
        ]
    }

    static let overview = """
        Run operations and scenarios of the Operations engine: the phone sign-in
        against an embedded simulated backend or a real server, journaled and resumable.
        """

    static let examples = [
        "opctl run auth --phone '+7 999 123-45-67' --accept-terms --code 123456",
        "opctl run auth --phone +79991234567 --accept-terms --code 000000 --backend 'sim:?fail=phone:1'",
        "opctl rerun RUN_ID --code 123456",
        "opctl explore auth --max-faults 2",
        "opctl serve --port 8080        # then: opctl run auth ... --backend http://127.0.0.1:8080",
    ]

    /// A sign-in also ends as cancelled when the terms are declined.
    static let cancelledStatusHelp = "terms declined or the run cancelled"

    /// The top-level help.
    static var help: String { RunnerMain<Opctl>.help }

    /// Runs one command line.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - console: The streams and environment.
    /// - Returns: The exit status.
    static func main(_ arguments: [String], console: Console) -> Int32 {
        RunnerMain<Opctl>.main(arguments, console: console)
    }
}
