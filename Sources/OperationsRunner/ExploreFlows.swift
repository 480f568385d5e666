import Foundation
import OperationsExplorer

/// `PROGRAM explore NAME`: runs one of the program's flows under every fault schedule up to
/// `--max-faults` and reports every violation of "never twice", shrunk and replayable. A CI job
/// runs it for every flow, so a change that lets a request act twice cannot land.
public enum ExploreFlows<Program: RunnerProgram>: Command {
    /// `explore`.
    public static var name: String { "explore" }
    /// The line of the program's help.
    public static var abstract: String { "Run a flow under every failure sequence and check it never acts twice" }
    /// The text of `PROGRAM help explore`.
    public static var help: String {
        let names = Program.configuration.explorations.map(\.name).joined(separator: "|")
        return """
            USAGE: \(Program.configuration.name) explore <\(names)> \(CommandOption.usage(of: options).joined(separator: " "))

            Runs the flow in process, over its simulated services, under every schedule of up
            to N faults: requests that fail before acting, act and lose their answer, time
            out, answer 5xx or 429; journal writes and syncs that fail or tear; the process
            killed at any of them, or while it waits (restarted at once or an hour later),
            and resumed from the bytes on disk; Ctrl-C. Then S-seeded random schedules. After
            each it reruns the run while 'check' offers a rerun, and checks that every
            request acted at most once, that nothing acts after an undo, that the run
            finishes once the faults stop, that 'check' agrees with 'rerun', and that no
            secret reaches the journal. Each violation is printed with its schedule, shrunk
            to the fewest faults that still break it, the Swift that replays it in a test,
            and the run's diagram. On a terminal, progress is shown on standard error.

            OPTIONS:
            \(options.map(\.helpLine).joined(separator: "\n"))

            EXIT STATUS:
              0    no violation
              1    a violation (printed)
              2    usage error
            """
    }
    /// The variable that makes the default depth every schedule of two faults: the program's
    /// name in capitals, then `_STRESS` (`OPCTL_STRESS`), as its test suites' stress runs are
    /// asked for (`ExplorationDepth`). Without it a flow is explored under every schedule of
    /// one fault and random ones of up to two, which keeps `explore NAME` within seconds for a
    /// flow of several steps, a poll and a relaunch; two faults of such a flow take longer.
    public static var stressVariable: String {
        String(Program.configuration.name.uppercased().map { $0.isLetter || $0.isNumber ? $0 : "_" }) + "_STRESS"
    }

    /// `--max-faults`, `--random`, `--seed`, `--json`, each declared once for the parser and the
    /// help.
    public static var options: [CommandOption] {
        [
            maxFaultsOption, randomOption, seedOption,
            CommonOptions.json.described("Print one object: scenario, schedules, maxFaults, seed, violations"),
        ]
    }
    static var maxFaultsOption: CommandOption {
        CommandOption(
            "--max-faults", value: "N", "The most faults in one schedule (default 1; 2 with \(stressVariable)=1)")
    }
    static var randomOption: CommandOption {
        CommandOption("--random", value: "N", "Random schedules after those (default 100)")
    }
    static var seedOption: CommandOption {
        CommandOption("--seed", value: "S", "The seed of the random schedules (default 0)")
    }
    /// ``options`` and one flow name.
    public static var spec: ArgumentSpec { ArgumentSpec(options, maxPositionals: 1) }

    /// Explores the flow; exits 1 when a violation was found.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let names = Program.configuration.explorations.map(\.name)
        guard let typed = arguments.positionals.first else {
            throw UsageError("missing the flow to explore (one of: \(names.joined(separator: ", ")))", command: name)
        }
        guard let exploration = Program.configuration.explorations.first(where: { $0.name == typed }) else {
            throw UsageError(
                "no flow '\(typed)' to explore (one of: \(names.joined(separator: ", ")))", command: name)
        }
        let deep = console.environment[stressVariable] == "1"
        let maxFaults = try arguments.count(maxFaultsOption, default: deep ? 2 : 1, command: name)
        let random = try arguments.count(randomOption, default: 100, command: name)
        let seed = try UInt64(arguments.count(seedOption, default: 0, command: name))
        let line = ExplorationProgressLine(flow: exploration.name, console: console)
        let report = exploration.explore(
            maxFaults: maxFaults, randomSchedules: random, seed: seed, sealer: Program.configuration.journalSealer,
            progress: console.errorIsTerminal ? line.update : nil)
        line.clear()
        if arguments.has(CommonOptions.json) {
            let violations: [[String: Any]] = report.violations.map { violation in
                [
                    "schedule": violation.schedule.entries.map {
                        ["boundary": $0.boundary, "fault": $0.fault.rawValue]
                    },
                    "seed": violation.seed.map { $0 as Any } ?? NSNull(), "problems": violation.problems,
                    "diagram": violation.diagram,
                ]
            }
            let object: [String: Any] = [
                "scenario": report.scenario, "schedules": report.schedules, "maxFaults": report.maxFaults,
                "seed": report.seed, "violations": violations,
            ]
            console.print(JSONText.encode(object))
        } else {
            console.print(report.description)
            for violation in report.violations {
                console.print("--- the run under \(violation.schedule):")
                console.print(violation.diagram)
            }
        }
        return report.violations.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}
