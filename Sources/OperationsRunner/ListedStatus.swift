import Foundation
import Operations
public import OperationsJournal

/// A run's status as `runs` shows it and `--status` selects it: the journal's
/// `RunStatus`, or `damaged` for a journal that cannot be read.
public enum ListedStatus: String, CaseIterable, Comparable, Sendable {
    /// The run succeeded.
    case succeeded
    /// The run failed.
    case failed
    /// The run was cancelled or declined.
    case cancelled
    /// The run was interrupted (Ctrl-C, a killed process); it can be resumed.
    case interrupted
    /// A live process is writing the run.
    case running
    /// The journal cannot be read.
    case damaged

    /// The status of a listed run.
    public init(_ entry: RunStore.SummaryEntry) {
        switch entry.summary {
        case .success(let summary): self = Self(summary.status)
        case .failure: self = .damaged
        }
    }

    /// The status of a readable run.
    public init(_ status: RunStatus) {
        switch status {
        case .succeeded: self = .succeeded
        case .failed: self = .failed
        case .cancelled: self = .cancelled
        case .interrupted: self = .interrupted
        case .running: self = .running
        }
    }

    /// Alphabetical, the order sentences list counts in.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The statuses given to `command`'s `--status` (`values`: repeated, or separated by commas)
    /// out of those it accepts (`allowed`, in the order the error lists them).
    ///
    /// - Returns: The statuses, or `nil` when the option was not given.
    /// - Throws: ``UsageError`` naming the unknown value and listing the valid ones.
    public static func parse(_ values: [String], allowed: [ListedStatus], command: String) throws -> Set<ListedStatus>?
    {
        guard !values.isEmpty else { return nil }
        var statuses: Set<ListedStatus> = []
        for text in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let word = text.trimmingCharacters(in: .whitespaces).lowercased()
            guard let status = ListedStatus(rawValue: word), allowed.contains(status) else {
                throw UsageError(
                    "unknown status '\(ParsedArguments.clip(String(text)))' for --status; valid: "
                        + allowed.map(\.rawValue).joined(separator: ", "),
                    command: command)
            }
            statuses.insert(status)
        }
        return statuses
    }
}
