/// What an exploration found: how many schedules ran, and each distinct violation with the
/// fewest faults that still cause it.
public struct ExplorationReport: Sendable, Codable, CustomStringConvertible {
    /// One broken invariant, with how to see it again.
    public struct Violation: Sendable, Codable, CustomStringConvertible {
        /// The schedule, shrunk: removing any one of its faults makes the violation go away.
        public let schedule: FaultSchedule
        /// The seed of the random schedule it came from; `nil` for an exhaustive one.
        public let seed: UInt64?
        /// What went wrong, one sentence each.
        public let problems: [String]
        /// The run under the shrunk schedule, drawn as text (every session, in order).
        public let diagram: String

        /// The schedule, the problems and how to replay it: a line
        /// `replay: explorer.replay(FaultSchedule([.init(boundary: 12, fault: .loseAnswer)]))` that
        /// compiles when pasted into a test whose explorer is named `explorer`.
        public var description: String {
            var lines = ["schedule: \(schedule)" + (seed.map { " (from seed \($0))" } ?? "")]
            lines += problems.map { "  - \($0)" }
            // Swift a test compiles as it stands, given the explorer as `explorer`.
            lines.append("  replay: explorer.replay(\(schedule.swiftSource))")
            return lines.joined(separator: "\n")
        }
    }

    /// The scenario explored.
    public let scenario: String
    /// How many schedules ran (exhaustive and random, not counting the runs of shrinking).
    public let schedules: Int
    /// The highest number of faults in one exhaustive schedule.
    public let maxFaults: Int
    /// The seed of the random schedules.
    public let seed: UInt64
    /// The distinct violations; empty when every invariant held.
    public let violations: [Violation]

    /// One line when all held; otherwise each violation.
    public var description: String {
        let head = "\(scenario): \(schedules) schedules up to \(maxFaults) faults (seed \(seed)), "
        guard !violations.isEmpty else { return head + "0 violations" }
        return head + "\(violations.count) violation\(violations.count == 1 ? "" : "s")\n"
            + violations.map(\.description).joined(separator: "\n")
    }
}
