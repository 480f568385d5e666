import Foundation
import Operations
import OperationsJournal

/// `PROGRAM check`: whether this build could resume every run waiting in the state directory,
/// before it replaces the build that started them. The program's ``RunnerConfiguration/shapes``
/// are what the journals are compared with.
public enum CheckRuns<Program: RunnerProgram>: Command {
    /// `check`.
    public static var name: String { "check" }
    /// The line of the program's help.
    public static var abstract: String { "Check that this build can resume every failed or interrupted run" }
    /// The text of `PROGRAM help check`.
    public static var help: String {
        """
        \(HelpText.usage("\(Program.configuration.name) check", CommandOption.usage(of: options)))

        Reads every journal and checks it against this build's scenarios, launching and
        writing nothing. A run can be resumed when its scenario still has the same steps up to
        the last step the run reached; steps after it may have changed. Lists every run as it
        is checked, oldest first, with its scenario, status and verdict, then the counts and
        again each run this build could not resume, with the first step that differs; exits 1
        when there is one, so a CI job can stop a release that would strand runs.

        OPTIONS:
        \(options.map(\.helpLine).joined(separator: "\n"))
        """
    }
    /// `--state-dir`, `--json`, each declared once for the parser, the usage line and the help.
    public static var options: [CommandOption] {
        [
            Program.configuration.stateDir,
            CommonOptions.json.described(
                "Print a JSON array of objects, one a line: id, scenario, status, resumable, reason"),
        ]
    }
    /// ``options``.
    public static var spec: ArgumentSpec { ArgumentSpec(options) }

    /// Checks every run, listing each as it is checked; exits 1 when one cannot be resumed by
    /// this build. Nothing is held per run but the lines of those that cannot, repeated at the
    /// end where a reader of a long listing looks.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let stateDirectory = Program.configuration.stateDirectory(arguments, console)
        let json = arguments.has(CommonOptions.json)
        var checked = 0
        var waiting = 0
        var finished = 0
        var stranded: [String] = []
        if json { console.print("[") }
        do {
            try Program.configuration.runStore(stateDirectory)
                .checkResumable(by: Program.configuration.shapes(stateDirectory, console)) { check in
                    if json {
                        console.print((checked == 0 ? "" : ",") + JSONText.encode(object(check)))
                    } else {
                        console.print("  " + check.description)
                    }
                    checked += 1
                    switch check.verdict {
                    case .resumable, .running: waiting += 1
                    case .finished, .undone: finished += 1
                    case .stranded: stranded.append(check.description)
                    }
                }
        } catch {
            throw CLIError.message("cannot check runs: \(error)")
        }
        if json {
            console.print("]")
        } else {
            console.print(
                "\(CountText.runs(checked)) checked: \(CountText.grouped(waiting)) can be resumed, "
                    + "\(CountText.grouped(finished)) finished, "
                    + "\(CountText.grouped(stranded.count)) cannot be resumed by this build")
            for line in stranded { console.print("  " + line) }
        }
        return stranded.isEmpty ? ExitStatus.success : ExitStatus.failure
    }

    /// A check's JSON object: what `check --json` prints for one run.
    private static func object(_ check: ResumeCheck) -> [String: Any] {
        var reason: Any = NSNull()
        var resumable = !check.isStranded
        switch check.verdict {
        case .stranded(let text): reason = text
        case .undone(let steps):
            // Not stranded (no build could do more), and not resumable either.
            resumable = false
            reason = "undone (\(steps.joined(separator: ", "))): nothing to resume"
        default: break
        }
        return [
            "id": check.id.description, "scenario": check.scenario ?? NSNull(),
            "status": check.status?.rawValue ?? "damaged", "resumable": resumable, "reason": reason,
        ]
    }
}
