import Foundation
import Operations
import OperationsRunner

/// `opctl check`: whether this build could resume every run waiting in the state directory,
/// before it replaces the build that started them.
enum CheckCommand: Command {
    static let name = "check"
    static let abstract = "Check that this build can resume every failed or interrupted run"
    static let help = """
        USAGE: opctl check [--state-dir DIR] [--json]

        Reads every journal and checks it against this build's scenarios, launching and
        writing nothing. A run can be resumed when its scenario still has the same steps up to
        the last step the run reached; steps after it may have changed. Lists each run this
        build could not resume, with the first step that differs; exits 1 when there is one,
        so a CI job can stop a release that would strand runs.

        OPTIONS:
        \(CommonOptions.stateDirHelp)
          --json                 Print a JSON array of objects: id, scenario, status, resumable, reason
        """
    static let spec = ArgumentSpec(flags: ["--json"], options: ["--state-dir"])

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let stateDirectory = StateDirectory.resolve(
            option: arguments.value("--state-dir"), environment: console.environment)
        let factory = SignInServices.shapeOnlyFactory(stateDirectory: stateDirectory, console: console)
        let checks: [ResumeCheck]
        do {
            checks = try RunStore(stateDirectory: stateDirectory)
                .checkResumable(by: RunnableScenario.all.map { $0.shape(factory) })
        } catch {
            throw CLIError.message("cannot check runs: \(error)")
        }
        let stranded = checks.filter(\.isStranded)
        if arguments.has("--json") {
            let objects: [[String: Any]] = checks.map { check in
                var reason: Any = NSNull()
                if case .stranded(let text) = check.verdict { reason = text }
                return [
                    "id": check.id.description, "scenario": check.scenario ?? NSNull(),
                    "status": check.status?.rawValue ?? "damaged", "resumable": !check.isStranded, "reason": reason,
                ]
            }
            console.print(JSONText.encode(objects))
            return stranded.isEmpty ? ExitStatus.success : ExitStatus.failure
        }
        let waiting = checks.filter { $0.verdict == .resumable || $0.verdict == .running }.count
        let finished = checks.filter { $0.verdict == .finished }.count
        console.print(
            "\(checks.count) \(checks.count == 1 ? "run" : "runs") checked: \(waiting) can be resumed, "
                + "\(finished) finished, \(stranded.count) cannot be resumed by this build")
        for check in stranded { console.print("  " + check.description) }
        return stranded.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}
