import Operations

/// A value the journal must never keep in clear: an access token, a card number.
///
/// A step's input or output that is a `JournalConfidential` value is written sealed by the run's
/// ``JournalSealer``, or — without one — not at all. One that holds such a value inside (an
/// account number in an order) is written in clear, with only the confidential value sealed in
/// its place, or withheld alone (``ScenarioJournal`` has the format): with a sealer the whole
/// value replays. A value with anything withheld cannot be rebuilt, so a resumed run launches its
/// step again instead of replaying it (``StepRecord/outputNotKept`` says why); a step with side
/// effects is launched with the key of the attempt that succeeded, so a backend that honours
/// keys answers with its first answer instead of acting twice. A run's input that was withheld
/// must be given again.
///
/// Mark what is worth a relaunch to keep out of the file. A value that later steps build on and
/// that a relaunch would change (a short-lived session token the backend hands out anew each
/// time) is better sealed than withheld: the steps after it were recorded against the first one.
///
/// ```swift
/// struct AuthToken: Codable, Redactable, JournalConfidential { … }
/// ```
///
/// `Redactable` is the other half: it keeps the value out of diagrams, logs and terminal
/// output; this keeps it out of the journal.
public protocol JournalConfidential {}
