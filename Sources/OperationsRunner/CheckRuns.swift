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
        the last step the run reached; steps after it may have changed. Lists each run this
        build could not resume, with the first step that differs; exits 1 when there is one,
        so a CI job can stop a release that would strand runs.

        OPTIONS:
        \(options.map(\.helpLine).joined(separator: "\n"))
        """
    }
    /// `--state-dir`, `--json`, each declared once for the parser, the usage line and the help.
    public static var options: [CommandOption] {
        [
            Program.configuration.stateDir,
            CommonOptions.json.described("Print a JSON array of objects: id, scenario, status, resumable, reason"),
        ]
    }
    /// ``options``.
    public static var spec: ArgumentSpec { ArgumentSpec(options) }

    /// Checks every run; exits 1 when one cannot be resumed by this build.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let stateDirectory = Program.configuration.stateDirectory(arguments, console)
        let checks: [ResumeCheck]
        do {
            checks = try Program.configuration.runStore(stateDirectory)
                .checkResumable(by: Program.configuration.shapes(stateDirectory, console))
        } catch {
            throw CLIError.message("cannot check runs: \(error)")
        }
        let stranded = checks.filter(\.isStranded)
        if arguments.has(CommonOptions.json) {
            let objects: [[String: Any]] = checks.map { check in
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
            console.print(JSONText.encode(objects))
            return stranded.isEmpty ? ExitStatus.success : ExitStatus.failure
        }
        let waiting = checks.filter { $0.verdict == .resumable || $0.verdict == .running }.count
        let finished = checks.filter {
            if case .undone = $0.verdict { return true }
            return $0.verdict == .finished
        }.count
        console.print(
            "\(checks.count) \(checks.count == 1 ? "run" : "runs") checked: \(waiting) can be resumed, "
                + "\(finished) finished, \(stranded.count) cannot be resumed by this build")
        // The runs waiting for a rerun, and those undone, by name: a count alone leaves the
        // reader to find them. Finished runs are only counted.
        for check in checks where !check.isStranded && check.verdict != .finished {
            console.print("  " + check.description)
        }
        for check in stranded { console.print("  " + check.description) }
        return stranded.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}
