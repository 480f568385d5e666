import Foundation
import Operations
import OperationsJournal

/// Which runs `runs` lists: `--status`, `--scenario` and `--since`, all of which a run
/// must match.
struct RunFilter {
    /// The statuses to list; every status when `nil`.
    var statuses: Set<ListedStatus>?
    /// The scenario to list, by exact name.
    var scenario: String?
    /// The earliest start to list. A damaged journal has no known start, so `--since` leaves
    /// it out.
    var since: Date?

    /// Whether any filter was given (the listing's notes then speak of matching runs).
    var isActive: Bool { statuses != nil || scenario != nil || since != nil }

    /// `--status STATUS`, repeatable; `prune` describes it in its own words.
    static let status = CommandOption(
        "--status", value: "STATUS",
        "Only runs with this status: succeeded, failed, cancelled, interrupted,\n"
            + "running or damaged; repeat the option or separate statuses with commas")
    /// `--scenario NAME`; `runs` adds the program's names to its description.
    static let scenario = CommandOption("--scenario", value: "NAME", "Only runs of this scenario")
    static let since = CommandOption(
        "--since", value: "WHEN",
        "Only runs started since then: a duration ago (30m, 2h, 7d) or an ISO-8601\n"
            + "date (2025-01-31, 2025-01-31T12:00:00Z)")

    /// Reads the filters of a command line.
    ///
    /// - Throws: ``UsageError`` for an unknown status or a `--since` that is neither a duration
    ///   nor a date.
    init(_ arguments: ParsedArguments, command: String, now: Date) throws {
        try self.init(
            statuses: arguments.allValues(Self.status), scenario: arguments.value(Self.scenario),
            since: arguments.value(Self.since), command: command, now: now)
    }

    /// Reads the filters from their values as typed, wherever they were typed (a command line,
    /// the web view's query): every value of `--status`, and `--scenario` and `--since` if given.
    ///
    /// - Throws: ``UsageError`` for an unknown status or a `since` that is neither a duration
    ///   nor a date.
    init(statuses: [String], scenario: String?, since: String?, command: String, now: Date) throws {
        self.statuses = try ListedStatus.parse(statuses, allowed: ListedStatus.allCases, command: command)
        self.scenario = scenario
        self.since = try since.map { try TimeArgument.moment($0, option: Self.since.name, command: command, now: now) }
    }

    func matches(_ entry: RunStore.SummaryEntry) -> Bool {
        if let statuses, !statuses.contains(ListedStatus(entry)) { return false }
        guard scenario != nil || since != nil else { return true }
        guard case .success(let summary) = entry.summary else { return false }
        if let scenario, summary.scenario != scenario { return false }
        if let since, (summary.startedAt ?? summary.createdAt) < since { return false }
        return true
    }
}
