public import Foundation

/// Where a polled step stands, across every session of its run: when its polling began, how
/// many of its polls have answered "not done", and when the next one is due.
///
/// Reported (``ScenarioEvent/Kind/polling(_:)``) as the polling begins and before each wait, and
/// read back by a resumed run (``StepReplaying/pollProgress(at:)``): it waits only what is left,
/// counts its polls on (`atMost` bounds every poll of the step, not each session's), and
/// measures an overall limit from when the polling first began.
public struct PollProgress: Sendable, Hashable {
    /// When the step's first poll was launched, on the wall clock (``Scheduler/wallClock``).
    public let began: Date
    /// How many polls have been made so far. When the polling reports itself, each of them has
    /// answered "not done"; read back from a journal, a poll launched after the last report
    /// counts too (its answer is the journal's last for the step, or it was cut off).
    public let polls: Int
    /// When the next poll is due; `nil` as the polling begins, before any poll has answered.
    public let nextPoll: WaitDeadline?

    /// Creates a progress.
    public init(began: Date, polls: Int, nextPoll: WaitDeadline?) {
        self.began = began
        self.polls = polls
        self.nextPoll = nextPoll
    }
}
