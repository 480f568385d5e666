import Foundation
import OperationsRunner
import Testing

/// The checkout runner declares only its own options; the runner adds its own to the usage
/// line, the options and the parser, and the exit statuses, to `run` and `rerun` alike.
@Suite struct RunnerHelpTests {
    @Test func runHelpHasTheProgramsOptionsThenTheRunners() {
        let help = InProcessCheckout.run(["help", "run"])
        #expect(help.status == 0, "\(help)")
        #expect(help.stdout.hasPrefix("USAGE: checkout run <checkout> [--cart ID]"), "\(help)")
        for text in [
            "[--confirm-failures N]", "[--settle-every DURATION]", "[--state-dir DIR] [--json]", "  --coupon CODE ",
            "$CHECKOUT_STATE_DIR",
            "EXIT STATUS:\n  0    success", "  130  interrupted",
        ] {
            #expect(help.stdout.contains(text), "\(text) missing:\n\(help)")
        }
    }

    @Test func rerunNeedsNoHelpOfTheProgramsOwn() {
        let help = InProcessCheckout.run(["rerun", "--help"])
        #expect(help.status == 0, "\(help)")
        #expect(
            help.stdout.hasPrefix(
                "USAGE: checkout rerun RUN_ID [--from STEP] [--yes] [--dry-run] [--relaunch-in-doubt]"))
        #expect(help.stdout.contains("  --relaunch-in-doubt "), "\(help)")
        #expect(InProcessCheckout.run(["--help"]).stdout.contains("  rerun    Resume a failed or interrupted run"))
    }

    @Test func diagramHelpIsTheRunnersAndFitsAHundredColumns() {
        let help = InProcessCheckout.run(["help", "diagram"])
        #expect(help.status == 0, "\(help)")
        #expect(help.stdout.hasPrefix("USAGE: checkout diagram --run RUN_ID [--depth N]"), "\(help)")
        #expect(help.stdout.contains("  --step NAME "), "\(help)")
        let usage = help.stdout.components(separatedBy: "\n\n")[0]
        #expect(usage.split(separator: "\n").count == 2 && usage.split(separator: "\n").allSatisfy { $0.count <= 100 })
    }
}
