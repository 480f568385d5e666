import Foundation

/// How every listing and JSON object writes a moment: ISO-8601 in UTC, the form `--since` and
/// `--older-than` read back.
enum RunTimestamp {
    /// `2025-01-31T12:00:00Z`.
    static func text(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
