/// A value the journal must never keep in clear: an access token, a card number.
///
/// A step's input or output that is, or holds anywhere inside, a `JournalConfidential` value is
/// written sealed by the run's ``JournalSealer``, or — without one — not at all. A resumed run
/// then launches that step again instead of replaying it; a step with side effects is launched
/// with the key of the attempt that succeeded, so a backend that honours keys answers with its
/// first answer instead of acting twice. A run's input that was withheld must be given again.
///
/// Mark what is worth a relaunch to keep out of the file. A value that later steps build on and
/// that a relaunch would change (a short-lived session token the backend hands out anew each
/// time) is better sealed than withheld: the steps after it were recorded against the first one.
///
/// ```swift
/// struct AuthToken: Codable, Redactable, JournalConfidential { … }
/// ```
///
/// ``Redactable`` is the other half: it keeps the value out of diagrams, logs and terminal
/// output; this keeps it out of the journal.
public protocol JournalConfidential {}
