/// The options several commands share, declared once (``CommandOption``) so that every
/// command parses them and its help says them alike.
public enum CommonOptions {
    /// `--state-dir DIR` and where runs are kept without it (``StateDirectory``).
    ///
    /// - Parameter program: The program's name, which names the variable and the folder.
    public static func stateDir(program: String) -> CommandOption {
        let variable = StateDirectory.environmentVariable(program: program)
        return CommandOption(
            "--state-dir", value: "DIR",
            "Where runs are kept (default: $\(variable), $XDG_STATE_HOME/\(program) or ~/.local/state/\(program))")
    }

    /// `-h`/`--help`, which every command accepts without declaring it.
    static let help = CommandOption("--help", "Show help information")

    /// `--json`.
    public static let json = CommandOption("--json", "Print one JSON object on standard output")

    /// `--relaunch-in-doubt`, the rerun's consent to repeat a step that may have acted.
    public static let relaunchInDoubt = CommandOption(
        "--relaunch-in-doubt",
        "Launch a step with side effects left in doubt even though the\njournal has no idempotency key for it (it may act twice)"
    )

    /// `--from STEP`, `rerun`'s choice of the step to launch anew in a new run
    /// (`RerunFromStep`).
    public static let rerunFrom = CommandOption(
        "--from", value: "STEP",
        "Start a new run that replays the steps before STEP and launches\nSTEP and the steps after it anew (a nested step by its name,\nor a path such as VerificationScenario/CodeOp)"
    )

    /// `--yes`: `rerun --from` launches its steps with side effects anew without asking.
    public static let yes = CommandOption(
        "--yes", "With --from: launch the steps with side effects anew without asking\nfor confirmation")

    /// `--dry-run`: `rerun --from` says what it would launch anew and does nothing.
    public static let dryRun = CommandOption(
        "--dry-run",
        "With --from: list the steps with side effects a rerun from STEP\nwould launch anew, and change nothing")
}
