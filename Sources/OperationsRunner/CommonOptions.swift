/// The help lines of options several commands share, written once so that every command's help
/// says them alike.
public enum CommonOptions {
    /// `--state-dir DIR` and where runs are kept without it (``StateDirectory``).
    ///
    /// - Parameter program: The program's name, which names the variable and the folder.
    public static func stateDirHelp(program: String) -> String {
        let variable = StateDirectory.environmentVariable(program: program)
        return
            "  --state-dir DIR        Where runs are kept (default: $\(variable), $XDG_STATE_HOME/\(program) or ~/.local/state/\(program))"
    }

    /// `--json`.
    public static let jsonHelp = "  --json                 Print one JSON object on standard output"
}
