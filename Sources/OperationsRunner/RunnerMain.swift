import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The top level of a runner program: its help and version, `help COMMAND`, and the dispatch of
/// a command line to its command table, where a usage error becomes one line, a hint and exit
/// status 2, and any other error one line and exit status 1. Written once so that every program
/// answers alike; a program's `main.swift` is one call to ``runProcess()``.
public enum RunnerMain<Program: RunnerProgram> {
    /// The runner's commands specialised to the program, in the order its help lists them: the
    /// table of a program that has no commands of its own (``RunnerConfiguration/commands``).
    public static var standardCommands: [any Command.Type] {
        [
            RunScenario<Program>.self, RerunScenario<Program>.self, ListRuns<Program>.self, ShowRun<Program>.self,
            CheckRuns<Program>.self, PruneRuns<Program>.self, DrawRun<Program>.self, ServeRuns<Program>.self,
            ListScenarios<Program>.self, ExploreFlows<Program>.self,
        ]
    }

    /// The program's command table: its own, or ``standardCommands``.
    static var commands: [any Command.Type] { Program.configuration.commands ?? standardCommands }

    /// The top-level help: overview, commands, options, examples, exit statuses, environment.
    public static var help: String {
        let configuration = Program.configuration
        let commandLines = columns(commands.map { ($0.name, $0.abstract) } + [("help", "Show help for a command")])
        let environment = columns([
            (
                "\(StateDirectory.environmentVariable(program: configuration.name)), XDG_STATE_HOME",
                "where runs are kept"
            ),
            ("NO_COLOR", "no colour, even on a terminal"),
        ])
        return """
            OVERVIEW: \(configuration.overview)

            USAGE: \(configuration.name) <command> [options]

            COMMANDS:
            \(commandLines)

            OPTIONS:
              -h, --help   Show help; '\(configuration.name) help COMMAND' or '\(configuration.name) COMMAND --help' for a command
              --version    Show the version

            EXAMPLES:
            \(configuration.examples.map { "  " + $0 }.joined(separator: "\n"))

            EXIT STATUS:
            \(ExitStatus.helpLines(configuration.exitStatuses).joined(separator: "\n"))

            ENVIRONMENT:
            \(environment)

            """
    }

    /// Runs one command line, the arguments after the program name, and returns its exit status.
    public static func main(_ arguments: [String], console: Console) -> Int32 {
        switch arguments.first {
        case nil, "-h"?, "--help"?,
            "help"? where arguments.count == 1:
            console.out(help)
            return ExitStatus.success
        case "--version"?:
            console.print("\(Program.configuration.name) \(Program.configuration.version)")
            return ExitStatus.success
        case "help"?:
            guard let command = commands.first(where: { $0.name == arguments[1] }) else {
                return fail(UsageError("unknown command '\(ParsedArguments.clip(arguments[1]))'"), console)
            }
            console.print(command.help)
            return ExitStatus.success
        case let first?:
            guard let command = commands.first(where: { $0.name == first }) else {
                let kind = first.hasPrefix("-") && first != "-" ? "option" : "command"
                return fail(UsageError("unknown \(kind) '\(ParsedArguments.clip(first))'"), console)
            }
            return run(command, Array(arguments.dropFirst()), console)
        }
    }

    /// The whole process: Ctrl-C ends it with ``ExitStatus/interrupted`` until a run traps the
    /// signal itself, then ``main(_:console:)`` runs the command line on the real streams.
    ///
    /// A program that opted into ``installEarlyInterruptExit()`` has the same handler already;
    /// installing it again here covers the others and the platforms without `.preinit_array`.
    public static func runProcess() -> Never {
        // First thing: Ctrl-C before a run installs its own handler (while the program parses
        // arguments or loads the state directory) ends it with the interrupted status instead of
        // the signal's default death. A run replaces this with a handler that cancels and
        // journals, then puts it back.
        exitOnInterrupt()
        exit(main(Array(CommandLine.arguments.dropFirst()), console: .standard))
    }

    private static func run(_ command: any Command.Type, _ arguments: [String], _ console: Console) -> Int32 {
        do {
            let parsed = try ParsedArguments(arguments, spec: command.spec, command: command.name)
            if parsed.has(CommonOptions.help) {
                console.print(command.help)
                return ExitStatus.success
            }
            return try command.run(parsed, console: console)
        } catch let error as UsageError {
            return fail(error.within(command.name), console)
        } catch {
            console.note("\(Program.configuration.name): \(error)")
            return ExitStatus.failure
        }
    }

    /// `  NAME  text` lines, the names padded to the widest.
    private static func columns(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { "  \($0.0.padding(toLength: width, withPad: " ", startingAt: 0))  \($0.1)" }
            .joined(separator: "\n")
    }

    private static func fail(_ error: UsageError, _ console: Console) -> Int32 {
        console.note("\(Program.configuration.name): \(error.message)")
        console.note(error.hint(program: Program.configuration.name))
        return ExitStatus.usage
    }
}

/// SIGINT's handler until a run traps it: exit at once with ``ExitStatus/interrupted``. The
/// literal, not the constant, because it may run before the Swift runtime has initialised the
/// module's globals (from ``installEarlyInterruptExit()``); `opctlTests/InterruptAtStartTests.swift`
/// checks the two agree.
private func exitInterrupted(_: Int32) { _exit(130) }

/// Makes Ctrl-C end the process with ``ExitStatus/interrupted`` from the first moment the
/// executable's own code runs: what a runner program puts in its `.preinit_array`, so that an
/// interrupt while the Swift runtime and Foundation initialise, long before `main` and
/// ``RunnerMain/runProcess()``, exits 130 rather than killing the process by the signal.
///
/// An executable opts in; linking this module installs nothing (a test bundle or an app that links
/// it keeps SIGINT's default). The entry must live in the executable's own module, as a
/// `.preinit_array` entry only counts in the executable (Sources/opctl/EarlyInterrupt.swift):
///
/// ```swift
/// #if os(Linux) && compiler(>=6.3)
///     @used @section(".preinit_array")
///     let exitOnEarlyInterrupt: @convention(c) () -> Void = installEarlyInterruptExit
/// #endif
/// ```
///
/// `@section`/`@used` need Swift 6.3 and `.preinit_array` is an ELF section, hence the guard:
/// elsewhere the handler comes a little later, from ``RunnerMain/runProcess()``.
///
/// Safe that early: it only calls `signal` and `pthread_sigmask`, and its handler exits with the
/// literal 130, touching no global that the runtime has yet to initialise.
public func installEarlyInterruptExit() { exitOnInterrupt() }

/// Makes SIGINT exit with ``ExitStatus/interrupted`` on the calling (main) thread. SIGINT is
/// also unblocked: a process spawned from a Dispatch worker thread, which blocks every signal,
/// inherits that mask, and its Ctrl-C would otherwise stay pending forever.
private func exitOnInterrupt() {
    _ = signal(SIGINT, exitInterrupted)
    var interrupt = sigset_t()
    sigemptyset(&interrupt)
    sigaddset(&interrupt, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &interrupt, nil)
}
