import Foundation
import Operations
import OperationsJournal

/// What `prune` was asked to remove: runs of which statuses, last active before when.
struct PruneRequest {
    /// What prune removes without `--status`.
    static let finished: [ListedStatus] = [.succeeded, .failed, .cancelled]

    /// Runs last active before this moment are old enough.
    let cutoff: Date
    /// The statuses that may be removed; never `running`.
    let statuses: Set<RunStatus>
    /// Whether `--status` narrowed the statuses (then kept interrupted runs go unmentioned).
    let statusGiven: Bool
    /// `--include-interrupted`: interrupted runs may be removed too.
    let includeInterrupted: Bool
    /// `--dry-run`: say what would be removed, remove nothing.
    let dryRun: Bool

    /// `--older-than WHEN`, which `prune` needs.
    static let olderThanOption = CommandOption(
        "--older-than", value: "WHEN",
        "Remove runs last active before then: a duration ago (30m, 2h, 7d) or an\n"
            + "ISO-8601 date (2025-01-31, 2025-01-31T12:00:00Z)",
        isRequired: true)
    /// `--status STATUS`, in `prune`'s words.
    static let statusOption = RunFilter.status.described(
        "Only runs with this status: succeeded, failed, cancelled, or interrupted\n"
            + "(with --include-interrupted); repeat the option or separate statuses with commas")
    static let includeInterruptedOption = CommandOption(
        "--include-interrupted", "Also remove interrupted runs; they can no longer be rerun")
    /// `--dry-run`, in `prune`'s words.
    static let dryRunOption = CommonOptions.dryRun.described("List the runs that would be removed and remove nothing")

    /// Reads the command line; durations count back from `now`.
    ///
    /// - Throws: ``UsageError`` when `--older-than` is missing or unreadable, a status is not
    ///   one prune removes, or `--status interrupted` comes without `--include-interrupted`.
    init(_ arguments: ParsedArguments, command: String, program: String, now: Date) throws {
        guard let olderThan = arguments.value(Self.olderThanOption) else {
            throw UsageError(
                "missing --older-than WHEN: prune removes runs last active before then (e.g. --older-than 7d)",
                command: command)
        }
        cutoff = try TimeArgument.moment(olderThan, option: Self.olderThanOption.name, command: command, now: now)
        includeInterrupted = arguments.has(Self.includeInterruptedOption)
        dryRun = arguments.has(Self.dryRunOption)
        let given = try ListedStatus.parse(
            arguments.allValues(Self.statusOption), allowed: Self.finished + [.interrupted], command: command)
        if let given, given.contains(.interrupted), !includeInterrupted {
            throw UsageError(
                "--status interrupted needs --include-interrupted: interrupted runs can still be resumed with '\(program) rerun'",
                command: command)
        }
        statusGiven = given != nil
        let chosen = given ?? Set(Self.finished + (includeInterrupted ? [.interrupted] : []))
        statuses = Set(RunStatus.allCases.filter { chosen.contains(ListedStatus($0)) && $0 != .running })
    }

    /// Whether prune removes `run`: one of the chosen statuses, and old enough.
    func selects(_ run: RunSummary) -> Bool {
        statuses.contains(run.status) && run.lastActivityAt < cutoff
    }
}
