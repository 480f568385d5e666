import Foundation
import Operations
import OperationsJournal

/// `PROGRAM prune`: removes old finished runs with their files, keeping what can still be
/// resumed unless asked, and never touching a run a live process is writing.
public enum PruneRuns<Program: RunnerProgram>: Command {
    /// `prune`.
    public static var name: String { "prune" }
    /// The line of the program's help.
    public static var abstract: String { "Remove old finished runs and their files" }
    /// The text of `PROGRAM help prune`.
    public static var help: String {
        let usage = CommandOption.usage(of: options)
        return """
            \(HelpText.usage("\(Program.configuration.name) prune", lines: [Array(usage.prefix(4)), Array(usage.dropFirst(4))]))

            Removes the finished runs (succeeded, failed, cancelled) last active before WHEN, each with
            its files: journal, trace and settings. Interrupted runs can still be resumed with '\(Program.configuration.name)
            rerun', so they are kept unless --include-interrupted is given. A running run is never
            removed, nor a damaged journal. Says how many runs it removed, by status, and what it kept.
            It also removes the hidden drafts of runs a killed process never finished creating.

            OPTIONS:
            \(options.map(\.helpLine).joined(separator: "\n"))

            EXAMPLES:
              \(Program.configuration.name) prune --older-than 7d --dry-run
              \(Program.configuration.name) prune --older-than 30d --status failed,cancelled
              \(Program.configuration.name) prune --older-than 2025-01-31 --include-interrupted
            """
    }
    /// `--older-than`, the status filters, `--dry-run`, `--state-dir`, `--json`, each declared
    /// once for the parser, the usage line and the help.
    public static var options: [CommandOption] {
        [
            PruneRequest.olderThanOption, PruneRequest.statusOption, PruneRequest.includeInterruptedOption,
            PruneRequest.dryRunOption,
            Program.configuration.stateDir,
            CommonOptions.json.described(
                "Print one JSON object: dryRun, olderThan, removed (id, scenario, status,\n"
                    + "lastActivityAt), kept (interrupted, running, damaged), abandonedDrafts"),
        ]
    }
    /// ``options``.
    public static var spec: ArgumentSpec { ArgumentSpec(options) }

    /// Removes the runs, or lists them with `--dry-run`, and says what it removed and kept.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let request = try PruneRequest(arguments, command: name, program: Program.configuration.name, now: Date())
        let stateDirectory = Program.configuration.stateDirectory(arguments, console)
        let store = Program.configuration.runStore(stateDirectory)
        var outcome = PruneOutcome(request: request)
        do {
            let entries = try store.summaries()
            outcome.count(entries)
            if request.dryRun {
                outcome.removed = entries.compactMap { try? $0.summary.get() }.filter(request.selects)
            } else {
                // The listing above, not a second one: removal checks each run under its lock.
                let report = try store.removeRuns(among: entries, where: request.selects)
                outcome.removed = report.removed
                outcome.running += report.inProgress.count
                outcome.failures = report.failures.map(\.description)
                // What a process killed while creating a run left: never a run, so never listed.
                // Opening the store removed those it found; any left since go now.
                outcome.abandonedDrafts = store.removedDrafts.count + store.removeAbandonedDrafts().count
            }
        } catch {
            throw CLIError.message("cannot prune runs: \(error)")
        }
        if arguments.has(CommonOptions.json) {
            console.print(JSONText.encode(outcome.jsonObject))
        } else {
            if request.dryRun, !outcome.removed.isEmpty {
                let rows = outcome.removed.reversed().map { run in
                    [run.id.description, run.scenario, run.status.rawValue, RunTimestamp.text(run.lastActivityAt)]
                }
                for line in Table.render([["RUN", "SCENARIO", "STATUS", "LAST ACTIVE"]] + rows) { console.print(line) }
            }
            console.print(outcome.sentence)
        }
        for failure in outcome.failures { console.note("\(Program.configuration.name): \(failure)") }
        return outcome.failures.isEmpty ? ExitStatus.success : ExitStatus.failure
    }
}
