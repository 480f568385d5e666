import Foundation
import Operations
import OperationsJournal

/// `PROGRAM rerun RUN_ID --from STEP`: a new run, linked to the old one, that replays the
/// steps before STEP from the old journal and launches STEP and everything after it anew, as
/// new requests. The old journal is left byte for byte as it was; the new run's header names
/// it (`RunStore/rerun(_:from:scenario:)`), and `runs` and `show` show the link both ways.
///
/// Every refusal comes before anything is written or launched: a step the scenario does not
/// have, or a name several steps share, is a usage error listing the choices (exit 2); so is a
/// step the old run never reached, and a run whose scenario's shape this build no longer
/// matches (as for a plain rerun).
enum RerunFromStep<Program: RunnerProgram> {
    /// Makes the new run from `record`, the old run as a resume reads it, and runs it.
    static func run(
        _ record: JournalRecord, runID: RunID, step text: String, store: RunStore, stateDirectory: URL,
        arguments: ParsedArguments, console: Console
    ) throws -> Int32 {
        let program = Program.configuration
        let command = RerunScenario<Program>.name
        let (runnable, prepared) = try RerunScenario<Program>.preparedRerun(
            record, runID: runID, verb: "rerun", arguments: arguments, console: console, stateDirectory: stateDirectory)
        let address: StepAddress
        do throws(RerunFromError) {
            address = try StepSelector.address(named: text, in: prepared.shape)
        } catch {
            throw UsageError("--from: \(error)", command: command)
        }
        let plan: RerunFromPlan
        do throws(RerunFromError) {
            plan = try record.rerunPlan(from: address, shape: prepared.shape)
        } catch {
            throw UsageError("--from: \(error)", hint: "See '\(program.name) show \(runID)' for what it undid.")
        }
        // The input the new run needs is checked before anything is said or written.
        let input = try prepared.makeInput()
        if arguments.has(CommonOptions.dryRun) {
            console.print(describe(plan, runID: runID))
            return ExitStatus.success
        }
        if !plan.isHarmless, !arguments.has(CommonOptions.yes) {
            console.note(describe(plan, runID: runID))
            guard console.inputIsTerminal else {
                throw UsageError(
                    "rerun --from \(address.namePath) launches steps with side effects anew, and standard input is "
                        + "not a terminal to confirm it",
                    hint: "Add --yes to launch them anyway, or --dry-run to only list them.")
            }
            console.err("Launch them anew? [y/N] ")
            guard let answer = console.readLine()?.trimmingCharacters(in: .whitespaces).lowercased(),
                answer == "y" || answer == "yes"
            else {
                console.note("Nothing was launched.")
                return ExitStatus.cancelled
            }
        }
        try StateDirectory.prepare(stateDirectory)
        let newID: RunID
        do throws(RerunFromError) {
            newID = try store.rerun(runID, from: address, scenario: prepared.shape)
        } catch {
            switch error {
            case .journal(let cause):
                throw RerunScenario<Program>.refusal(cause, runID: runID, runnable: runnable, arguments: arguments)
            case .undoneBefore:
                throw UsageError("--from: \(error)", hint: "See '\(program.name) show \(runID)' for what it undid.")
            case .stepNotReached:
                throw UsageError(
                    "--from: \(error)", hint: "See '\(program.name) show \(runID)' for the steps it reached.")
            case .unknownStep, .ambiguousStep:
                throw UsageError("--from: \(error)", command: command)
            }
        }
        console.note("\(program.name): run \(newID) reruns \(runID) from \(address.namePath)")
        let journal: ScenarioJournal
        do throws(JournalError) {
            journal = try store.resume(
                newID, scenario: prepared.shape, relaunchingInDoubt: arguments.has(CommonOptions.relaunchInDoubt))
        } catch {
            throw RerunScenario<Program>.refusal(error, runID: newID, runnable: runnable, arguments: arguments)
        }
        prepared.resumed(journal.url)
        return RunScenario<Program>.execute(
            prepared, runnable: runnable, journal: journal, arguments: arguments, console: console, input: input)
    }

    /// The plan as a person reads it: what goes out again, and what a plain rerun would finish
    /// instead.
    static func describe(_ plan: RerunFromPlan, runID: RunID) -> String {
        let program = Program.configuration.name
        let from = plan.step.namePath
        guard !plan.isHarmless else {
            return "A rerun of \(runID) from \(from) launches no step with side effects anew."
        }
        var lines = ["A rerun of \(runID) from \(from) launches these steps with side effects anew, as new requests:"]
        for address in plan.relaunched {
            let doubt = plan.inDoubt.contains(address) ? " (in doubt in run \(runID): it may have acted)" : ""
            lines.append("  \(address.namePath)\(doubt)")
        }
        if !plan.inDoubt.isEmpty {
            let steps = plan.inDoubt.map(\.namePath).joined(separator: ", ")
            lines.append(
                "A plain '\(program) rerun \(runID)' finishes \(steps) under the same idempotency key instead, "
                    + "with no second request.")
        }
        return lines.joined(separator: "\n")
    }
}
