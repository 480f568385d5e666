import Foundation
import Operations
import OperationsJournal
import OperationsRunner
import Testing

/// What the runner's help gives a program that declares nothing but its name and scenarios: a
/// `run` and `rerun` help with usage, discussion, the runner's options and the exit statuses,
/// all from one table (``ExitStatus``) and one layout (``HelpText``).
struct RunnerHelpDefaultsTests {
    /// A program with no help of its own.
    enum Minimal: RunnerProgram {
        static let configuration = RunnerConfiguration<String>(
            name: "tool", version: "1", overview: "A tool.", examples: ["tool run a"],
            scenarios: [
                ScenarioListing(name: "a", summary: "A", isScenario: true),
                ScenarioListing(name: "b", summary: "B", isScenario: true),
            ],
            shapes: { _, _ in [] }, prepareRun: { _ in throw CLIError.message("not in this test") },
            prepareRerun: { _, _ in throw CLIError.message("not in this test") }
        ).with { $0.commands = [RunScenario<Self>.self, RerunScenario<Self>.self] }
    }

    @Test func aProgramThatDeclaresNoHelpGetsWholeRunAndRerunHelp() {
        let run = RunScenario<Minimal>.help
        #expect(run.hasPrefix("USAGE: tool run <a|b> [--state-dir DIR] [--json]\n\nRuns one of what 'tool ops' lists."))
        #expect(run.contains("  --json                 Print one JSON object on standard output"))
        #expect(run.hasSuffix(ExitStatus.helpSection(ExitStatus.meanings())))
        let rerun = RerunScenario<Minimal>.help
        #expect(
            rerun.hasPrefix(
                "USAGE: tool rerun RUN_ID [--from STEP] [--yes] [--dry-run] [--relaunch-in-doubt] [--state-dir DIR]")
        )
        #expect(rerun.contains(RerunScenario<Minimal>.replayParagraph))
        #expect(rerun.contains("  --relaunch-in-doubt    Launch a step with side effects left in doubt"))
        #expect(Set(RerunScenario<Minimal>.spec.flags) == ["--yes", "--dry-run", "--relaunch-in-doubt", "--json"])
        #expect(RerunScenario<Minimal>.abstract.hasPrefix("Resume a failed or interrupted run"))
    }

    /// A program's top-level help, `help run` and `help rerun` print the same exit-status lines:
    /// the table is declared once.
    @Test func everyHelpPrintsTheOneExitStatusTable() {
        let lines = ExitStatus.helpLines(Chores.configuration.exitStatuses)
        #expect(lines[3] == "  3    the run cancelled")
        #expect(lines.last == "  130  interrupted (Ctrl-C); the run can be rerun")
        let section = (["EXIT STATUS:"] + lines).joined(separator: "\n")
        for help in [RunnerMain<Chores>.help, RunScenario<Chores>.help, RerunScenario<Chores>.help] {
            #expect(help.contains(section), "\(help)")
        }
    }

    @Test(arguments: [
        (["[--a]", "[--b]"], "USAGE: x y [--a] [--b]"),
        (
            [String(repeating: "a", count: 80), "[--long-option VALUE]", "[--c]"],
            "USAGE: x y \(String(repeating: "a", count: 80))\n           [--long-option VALUE] [--c]"
        ),
    ])
    func usageLinesWrapUnderTheFirstArgument(arguments: [String], expected: String) {
        #expect(HelpText.usage("x y", arguments) == expected)
    }

    @Test func optionLinesAlignTheirDescriptions() {
        #expect(
            HelpText.option("--json", "Print JSON")
                == CommonOptions.json.helpLine.replacing(/Print.*/, with: "Print JSON"))
        #expect(HelpText.option("--x N", "one\ntwo") == "  --x N                  one\n                         two")
    }

    @Test func aDeclaredOptionMakesItsSpecUsageAndHelpLineAndIsReadBackThroughIt() throws {
        let options = [CommandOption("--count", value: "N", "How many"), CommandOption("--dry", "Touch nothing")]
        #expect(options.map(\.usage) == ["[--count N]", "[--dry]"])
        #expect(
            options.map(\.helpLine) == ["  --count N              How many", "  --dry                  Touch nothing"])
        let spec = ArgumentSpec(options)
        #expect(spec.flags == ["--dry"] && spec.options == ["--count"])
        // Read back through the declaration, also when a command describes it in its own words.
        let parsed = try ParsedArguments(["--count=3", "--dry"], spec: spec, command: "x")
        #expect(try parsed.count(options[0], command: "x") == 3)
        #expect(parsed.has(options[1].described("Change nothing")) && !parsed.has(CommonOptions.json))
        // A program's own option joins the runner's in its command's spec.
        #expect(RunScenario<Chores>.spec.flags.isSuperset(of: ["--json", "--fail"]))
        #expect(
            RunScenario<Chores>.spec.options.isSuperset(of: ["--state-dir"])
                && RunScenario<Chores>.spec.maxPositionals == 1)
        #expect(RerunScenario<Chores>.spec.flags.isSuperset(of: ["--relaunch-in-doubt", "--json"]))
    }
}
