public import Foundation

/// When a durable wait ends, on the wall clock: the output of a wait's step, journaled like any
/// step's, so that a run resumed in another process waits only what is left of it.
///
/// A monotonic instant (``Scheduler/now``) means nothing once its process is gone, so the
/// deadline is a wall-clock time (``Scheduler/wallClock``).
public struct WaitDeadline: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The wall-clock time the wait ends at.
    public let until: Date
    /// How long the wait was, in seconds, when its deadline was set.
    public let seconds: Double

    /// Creates a deadline at `until` of a wait `seconds` long.
    public init(until: Date, seconds: Double) {
        self.until = until
        self.seconds = seconds
    }

    /// The deadline of a wait of `seconds` that begins at `wallClock`.
    public init(from wallClock: Date, seconds: Double) {
        self.init(until: wallClock.addingTimeInterval(seconds), seconds: seconds)
    }

    /// What is left of the wait at `wallClock`; zero once the deadline has passed.
    public func remaining(at wallClock: Date) -> Duration {
        let left = until.timeIntervalSince(wallClock)
        return left > 0 ? .milliseconds(Int64((left * 1_000).rounded())) : .zero
    }

    /// The wait as a journal and a diagram show it, e.g. `30 s, until 2027-01-15T08:00:30Z`.
    public var description: String {
        "\(WaitDeadline.describe(seconds: seconds)), until \(until.formatted(.iso8601))"
    }

    /// How long the wait was, as a person reads it: `30 s`, `20 min`, `48 h`.
    public var describedLength: String { Self.describe(seconds: seconds) }

    /// A duration in seconds as a person reads it: `30 s`, `1.5 s`; from two minutes on in whole
    /// minutes or hours when it is one (`20 min`, `48 h`), since "1200 s" has to be worked out.
    static func describe(seconds: Double) -> String {
        if seconds >= 3_600, seconds.truncatingRemainder(dividingBy: 3_600) == 0 { return "\(Int(seconds) / 3_600) h" }
        if seconds >= 120, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds) / 60) min" }
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
