public import Operations

/// What can happen to the app from outside while its main scenario runs: a push, a message from
/// the backend, another device.
///
/// The app posts them to ``AuthFlowFactory/events``; ``AppScenario`` takes them at its step
/// boundaries (see ``AppScenario/react(to:at:factory:_:)``).
public enum AppEvent: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The terms of use changed: show the new ones now, for the saved sign-in.
    case termsChanged = "terms-changed"
    /// The session was signed out on another device: end the flow and forget the token.
    case signedOutElsewhere = "signed-out-elsewhere"

    /// The event's name on the command line and in notes: `terms-changed`.
    public var description: String { rawValue }
}

/// The flow ended because the session was signed out on another device. A cancellation: nobody
/// here failed, and nothing is worth retrying.
public struct SignedOutElsewhere: CancellationReason, Sendable, Hashable, CustomStringConvertible {
    /// Creates the reason.
    public init() {}

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String { "the session was signed out on another device" }
}
