import Foundation
import OperationsRunner
import Testing

@testable import opctl

/// What opctl declares on top of the runner's command line (whose own rules
/// OperationsRunnerTests holds): its words in the exit-status table, its launching commands'
/// options and usage width, its phone option's usage errors, and its state directory's names.
struct OpctlCommandLineTests {
    /// opctl's `help run`, `help rerun` and top-level help print the same exit-status lines:
    /// the table is declared once, with opctl's words for status 3.
    @Test func everyHelpPrintsTheOneExitStatusTable() {
        let lines = ExitStatus.helpLines(Opctl.configuration.exitStatuses)
        #expect(lines[3] == "  3    terms declined or the run cancelled")
        #expect(lines.last == "  130  interrupted (Ctrl-C); the run can be rerun")
        let section = (["EXIT STATUS:"] + lines).joined(separator: "\n")
        for help in [Opctl.help, RunCommand.help, RerunCommand.help] {
            #expect(help.contains(section), "\(help)")
        }
    }

    @Test func theLaunchingCommandsDeclareTheSignInsOptions() {
        #expect(RunCommand.spec.flags.isSuperset(of: ["--json", "--accept-terms"]))
        #expect(
            RunCommand.spec.options.isSuperset(of: ["--state-dir", "--phone"]) && RunCommand.spec.maxPositionals == 1)
        #expect(RerunCommand.spec.flags.isSuperset(of: ["--relaunch-in-doubt", "--json", "--code-stdin"]))
    }

    @Test func usageLinesOfOpctlsLaunchingCommandsFitAHundredColumns() {
        for help in [RunCommand.help, RerunCommand.help] {
            let usage = help.components(separatedBy: "\n\n")[0]
            #expect(usage.split(separator: "\n").allSatisfy { $0.count <= HelpText.usageWidth }, "\(usage)")
        }
    }

    @Test func aBadPhoneIsAUsageErrorOfOneLineAndAHint() {
        let opctl = InProcessOpctl()
        for arguments in [["run", "auth", "--phone=abc"], ["run", "auth", "--phone="]] {
            let result = opctl.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stdout.isEmpty)
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 2, "\(arguments): \(result.stderr)")
            #expect(lines.last?.hasPrefix("See 'opctl") == true)
        }
        #expect(opctl.run("run", "auth", "--phone=abc").stderr.contains("letters"), "the inline value was parsed")
    }

    @Test func theStateDirectoryIsNamedForOpctl() {
        let environment = ["OPCTL_STATE_DIR": "/from/env", "XDG_STATE_HOME": "/xdg", "HOME": "/home/u"]
        #expect(StateDirectory.resolve(option: "/opt", environment: environment).path == "/opt")
        #expect(StateDirectory.resolve(option: nil, environment: environment).path == "/from/env")
        #expect(StateDirectory.resolve(option: nil, environment: ["XDG_STATE_HOME": "/xdg"]).path == "/xdg/opctl")
        #expect(
            StateDirectory.resolve(option: nil, environment: ["HOME": "/home/u"]).path == "/home/u/.local/state/opctl")
    }
}
