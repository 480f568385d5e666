public import Foundation
public import Operations

/// An event from outside that one of the run's scenarios handled, as its journal recorded it
/// (``JournalRecord/handledEvents``): which scenario, in which session, when, and the event with
/// its reaction and what that launched (`HandledEvent`, in Operations).
public struct HandledEventRecord: Sendable, Hashable {
    /// The session (process) that handled it, from 1.
    public let session: Int
    /// When the reaction came.
    public let at: Date
    /// The scenario that handled it: the run's root (an empty address) or a nested scenario.
    public let scenario: StepAddress
    /// The event, the boundary it was taken at, the reaction and what it launched.
    public let event: HandledEvent

    /// Creates a record from its parts, each as its property says.
    public init(session: Int, at: Date, scenario: StepAddress, event: HandledEvent) {
        self.session = session
        self.at = at
        self.scenario = scenario
        self.event = event
    }
}
