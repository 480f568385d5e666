/// A stateful operation found no phone token in its ``PhoneTokenStore``: the phone step has not run,
/// or its token was cleared. What the stateful variants risk instead of it is worse — acting on
/// a token an earlier attempt left behind.
public struct MissingPhoneToken: Error, Sendable, Hashable, CustomStringConvertible {
    /// Creates the error.
    public init() {}

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String { "No phone token is saved: submit the phone number first." }
}
