/// How a message between two participants is drawn and what it means for activation bars.
public enum MessageStyle: String, Hashable, Sendable, Codable, CaseIterable {
    /// A synchronous call (a solid arrow). If the callee later replies to the caller, the callee's
    /// activation bar spans from the call to the reply.
    case call
    /// The answer to an earlier call (a dashed arrow). It closes the activation bar the call
    /// opened; a reply that answers no call (and no creation) is an invalid trace.
    case reply
    /// A one-way asynchronous message or callback, e.g. a completion handler arriving on another
    /// thread (drawn with its own wavy line). It never opens or closes a bar.
    case async
}
