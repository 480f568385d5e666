import Foundation
import OperationsRunner

/// The command table and top-level help of opctl; `main.swift` only calls ``main(_:console:)``,
/// so tests run commands in-process.
enum Opctl {
    /// The program's name: in hints, the state directory's variable and folder, and messages.
    static let name = "opctl"
    static let version = "0.2.0"

    static var commands: [any Command.Type] {
        [
            RunCommand.self, RerunCommand.self, RunsCommand.self, ShowCommand.self, PruneCommand.self,
            CheckCommand.self, DiagramCommand.self, OpsCommand.self, ServeCommand.self,
        ]
    }

    static var help: String {
        let entries =
            commands.map { ($0.name, $0.abstract) } + [
                ("help", "Show help for a command")
            ]
        let width = entries.map(\.0.count).max() ?? 0
        let list = entries.map { "  \($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1)" }
        return """
            OVERVIEW: Run operations and scenarios of the Operations engine: the phone sign-in
            against an embedded simulated backend or a real server, journaled and resumable.

            USAGE: opctl <command> [options]

            COMMANDS:
            \(list.joined(separator: "\n"))

            OPTIONS:
              -h, --help   Show help; 'opctl help COMMAND' or 'opctl COMMAND --help' for a command
              --version    Show the version

            EXAMPLES:
              opctl run auth --phone '+7 999 123-45-67' --accept-terms --code 123456
              opctl run auth --phone +79991234567 --accept-terms --code 000000 --backend 'sim:?fail=phone:1'
              opctl rerun RUN_ID --code 123456
              opctl serve --port 8080        # then: opctl run auth ... --backend http://127.0.0.1:8080

            EXIT STATUS:
              0    success
              1    the run failed (the message names the failed operation and the rerun command)
              2    usage or input error
              3    terms declined or the run cancelled
              130  interrupted (Ctrl-C); the run can be rerun

            ENVIRONMENT:
              OPCTL_STATE_DIR, XDG_STATE_HOME  where runs are kept
              NO_COLOR                         no colour, even on a terminal

            """
    }

    /// Runs one command line.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after the program name.
    ///   - console: The streams and environment.
    /// - Returns: The exit status.
    static func main(_ arguments: [String], console: Console) -> Int32 {
        guard let first = arguments.first else {
            console.out(help)
            return ExitStatus.success
        }
        switch first {
        case "-h", "--help":
            console.out(help)
            return ExitStatus.success
        case "--version":
            console.print("opctl \(version)")
            return ExitStatus.success
        case "help":
            guard let topic = arguments.dropFirst().first else {
                console.out(help)
                return ExitStatus.success
            }
            guard let command = commands.first(where: { $0.name == topic }) else {
                return fail(UsageError("unknown command '\(ParsedArguments.clip(topic))'"), console)
            }
            console.print(command.help)
            return ExitStatus.success
        default:
            guard let command = commands.first(where: { $0.name == first }) else {
                let kind = first.hasPrefix("-") && first != "-" ? "option" : "command"
                return fail(UsageError("unknown \(kind) '\(ParsedArguments.clip(first))'"), console)
            }
            return run(command, Array(arguments.dropFirst()), console)
        }
    }

    private static func run(_ command: any Command.Type, _ arguments: [String], _ console: Console) -> Int32 {
        do {
            let parsed = try ParsedArguments(arguments, spec: command.spec, command: command.name)
            if parsed.has("--help") {
                console.print(command.help)
                return ExitStatus.success
            }
            return try command.run(parsed, console: console)
        } catch let error as UsageError {
            return fail(error.within(command.name), console)
        } catch {
            console.note("opctl: \(error)")
            return ExitStatus.failure
        }
    }

    private static func fail(_ error: UsageError, _ console: Console) -> Int32 {
        console.note("opctl: \(error.message)")
        console.note(error.hint)
        return ExitStatus.usage
    }
}
