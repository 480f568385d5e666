import Foundation
import Operations
import OperationsJournal

/// `PROGRAM runs`: the runs in the state directory, newest first, filtered and limited.
///
/// The listing comes from the run store's summary index, so it reads only the journals that
/// changed since the last listing, however many runs are kept; a page of the newest runs
/// without a filter (the default) checks only the runs it shows (`RunStore/newestSummaries(_:)`).
public enum ListRuns<Program: RunnerProgram>: Command {
    /// `runs`.
    public static var name: String { "runs" }
    /// The line of the program's help.
    public static var abstract: String { "List the journaled runs, newest first" }
    /// How many runs the table shows without `--limit`: a screenful.
    public static var defaultLimit: Int { 20 }
    /// The text of `PROGRAM help runs`.
    public static var help: String {
        let usage = CommandOption.usage(of: options)
        return """
            \(HelpText.usage("\(Program.configuration.name) runs", lines: [Array(usage.prefix(4)), Array(usage.dropFirst(4))]))

            Lists the runs, newest first, with their id, scenario, status (succeeded, failed, cancelled,
            interrupted, running), step (the failed one; a running run's current step and how long it
            has been there) and start time. A journal that cannot be read is listed as
            damaged; with --json it is left out of the array and named on standard error instead. The
            table shows the newest \(defaultLimit) runs that match, and standard error says how many older
            ones were left out.

            OPTIONS:
            \(options.map(\.helpLine).joined(separator: "\n"))
            """
    }
    /// The filters, `--limit`, `--state-dir`, `--json`, each declared once for the parser, the
    /// usage line and the help.
    public static var options: [CommandOption] {
        [
            limitOption,
            RunFilter.status,
            RunFilter.scenario.described(
                "Only runs of this scenario (\(Program.configuration.scenarioNamesHelp))"),
            RunFilter.since,
            Program.configuration.stateDir,
            CommonOptions.json.described(
                "Print a JSON array of objects, newest first: id, scenario, status, failedStep,\n"
                    + "currentStep, currentStepSince and currentStepMilliseconds (a running\n"
                    + "run's), startedAt, finishedAt, and for a run that did not succeed its hint\n"
                    + "(and rerun, the command that goes on)"),
        ]
    }
    static var limitOption: CommandOption {
        CommandOption(
            "--limit", value: "N",
            "Show the newest N matching runs (default: \(defaultLimit); with --json: all); 0 for all")
    }
    /// ``options``.
    public static var spec: ArgumentSpec { ArgumentSpec(options) }

    /// Prints the table, or the JSON array with `--json`.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let stateDirectory = Program.configuration.stateDirectory(arguments, console)
        let json = arguments.has(CommonOptions.json)
        let filter = try RunFilter(arguments, command: name, now: Date())
        let limit = try limit(arguments.value(limitOption), json: json)
        let store = Program.configuration.runStore(stateDirectory)
        let shown: [RunStore.SummaryEntry]
        let matching: Int
        let total: Int
        let links: RunLinks
        do {
            if let limit, !filter.isActive {
                // A page: only the runs shown are read; the others are counted.
                let page = try store.newestSummaries(limit)
                (shown, matching, total, links) = (page.runs, page.total, page.total, RunLinks(page.reruns))
            } else {
                let all = try store.summaries()
                let matches = Array(all.reversed().filter(filter.matches))
                shown = limit.map { Array(matches.prefix($0)) } ?? matches
                // The links of `rerun --from`, from every run, not only those shown.
                (matching, total, links) = (matches.count, all.count, RunLinks(all))
            }
        } catch {
            throw CLIError.message("cannot list runs: \(error)")
        }
        let leftOut = matching - shown.count
        let current = Self.current(of: shown, in: store)
        if json {
            let directoryOption = Program.configuration.stateDirectoryOption(arguments)
            // Every object keeps the promised keys and statuses; a damaged journal has neither a
            // scenario nor a start time, so it is reported beside the array, not in it.
            let runs: [[String: Any]] = shown.compactMap { entry in
                switch entry.summary {
                case .success(let summary):
                    var hint: RunHint?
                    if summary.status != .succeeded && summary.status != .running {
                        // A finished run's hint from what the index keeps of it (``RunHint/Basis``); an
                        // interrupted run's, or one an older index line does not keep, from its journal.
                        hint =
                            summary.listingNote.flatMap(RunHint.Basis.init(note:)).map {
                                RunHint(
                                    $0, program: Program.configuration.name, runID: entry.id,
                                    stateDirectoryOption: directoryOption)
                            }
                            ?? (try? store.load(entry.id)).flatMap {
                                Program.configuration.hint(for: $0, stateDirectoryOption: directoryOption)
                            }
                    }
                    return object(summary, id: entry.id, links: links, hint: hint, current: current[entry.id])
                case .failure(let error):
                    console.note(
                        "\(Program.configuration.name): left out run \(entry.id), its journal cannot be read: \(error)")
                    return nil
                }
            }
            console.print(JSONText.encode(runs))
        } else if total == 0 {
            console.note(
                "No runs yet in \(stateDirectory.path). Start one with '\(Program.configuration.name) run \(Program.configuration.scenarios.first?.name ?? "NAME")'."
            )
        } else if matching == 0 {
            console.note("No runs match (\(CountText.runs(total)) in \(stateDirectory.path)).")
        } else {
            printTable(shown, links: links, current: current, console: console)
        }
        if leftOut > 0 {
            let older = filter.isActive ? "older matching" : "older"
            console.note("… \(CountText.runs(leftOut, older)) not shown (use --limit 0 for all)")
        }
        return ExitStatus.success
    }

    /// Where each live run of `entries` is, from its history, as `show` says it: only live runs'
    /// journals are read, and they are few. The web view's runs page reads it alike.
    static func current(of entries: some Sequence<RunStore.SummaryEntry>, in store: RunStore) -> [RunID: RunHistory
        .Current]
    {
        let now = Date()
        var current: [RunID: RunHistory.Current] = [:]
        for entry in entries {
            guard case .success(let summary) = entry.summary, summary.status == .running,
                let record = try? store.load(entry.id)
            else { continue }
            current[entry.id] = RunHistory(record, now: now).current
        }
        return current
    }

    /// The `--limit` value: `nil` for no limit.
    private static func limit(_ text: String?, json: Bool) throws -> Int? {
        guard let text else { return json ? nil : defaultLimit }
        guard let limit = Int(text), limit >= 0 else {
            throw UsageError(
                "--limit '\(ParsedArguments.clip(text))' is not a number of runs (a whole number, 0 for all)",
                command: name)
        }
        return limit == 0 ? nil : limit
    }

    /// A run's object in `runs --json`, in the keys `show --json` gives the same facts:
    /// `failedStep` null when there is none; `finishedAt`, a live run's current step, the runs
    /// it was rerun from or as, and the way on only where they apply.
    private static func object(
        _ summary: RunSummary, id: RunID, links: RunLinks, hint: RunHint?, current: RunHistory.Current?
    ) -> [String: Any] {
        // A live run has not failed: the step it is at is its current step, not a failed one.
        let isRunning = summary.status == .running
        var object: [String: Any] = [
            "id": id.description, "scenario": summary.scenario, "status": summary.status.rawValue,
            "failedStep": (isRunning ? nil : summary.failedStep?.name) ?? NSNull(),
            "startedAt": RunTimestamp.text(summary.startedAt ?? summary.createdAt),
        ]
        object["finishedAt"] = summary.finishedAt.map(RunTimestamp.text)
        if isRunning {
            object["currentStep"] = current?.step.name ?? summary.failedStep?.name
            object["currentStepSince"] = current.map { RunTimestamp.text($0.since) }
            object["currentStepMilliseconds"] = current.map { Int($0.elapsed.inMilliseconds.rounded(.down)) }
        }
        object["rerunOf"] = summary.rerunOf.map { RunLinks.object(run: $0.run, step: $0.step) }
        if !links.objects(of: id).isEmpty { object["reruns"] = links.objects(of: id) }
        object["rerun"] = hint?.rerun
        object["hint"] = hint?.line
        return object
    }

    /// The table; a `LINKS` column only when a shown run was rerun from a step or made so,
    /// so a listing without such runs reads as it always has.
    private static func printTable(
        _ entries: [RunStore.SummaryEntry], links: RunLinks, current: [RunID: RunHistory.Current], console: Console
    ) {
        let linkTexts = entries.map { entry -> String? in
            guard case .success(let summary) = entry.summary else { return nil }
            let texts = [summary.rerunOf.map(RunLinks.text), links.text(of: entry.id)].compactMap { $0 }
            return texts.isEmpty ? nil : texts.joined(separator: "; ")
        }
        let linked = linkTexts.contains { $0 != nil }
        var rows = [["RUN", "SCENARIO", "STATUS", "STEP", "STARTED"] + (linked ? ["LINKS"] : [])]
        for (entry, link) in zip(entries, linkTexts) {
            let linkColumn = linked ? [link ?? "-"] : []
            switch entry.summary {
            case .success(let summary):
                rows.append(
                    [
                        entry.id.description, summary.scenario, summary.status.rawValue,
                        HistoryText.listedStep(summary, current: current[entry.id]),
                        RunTimestamp.text(summary.startedAt ?? summary.createdAt),
                    ] + linkColumn)
            case .failure:
                rows.append([entry.id.description, "?", ListedStatus.damaged.rawValue, "-", "-"] + linkColumn)
            }
        }
        for line in Table.render(rows) { console.print(line) }
    }
}
