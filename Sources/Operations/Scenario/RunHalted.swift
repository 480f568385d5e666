/// A run stopped because what records it failed (a journal that could not write or sync): no
/// step launches after it, no retry or failure handler runs, and the run ends failed.
///
/// Launching on would let a request out whose idempotency key is not on disk, and a rerun could
/// then not repeat it under the same key (see ``IdempotencyKey``). A host reads ``reason`` to
/// tell the person which file failed and why; once the disk is fixed, a rerun goes on from what
/// the journal holds.
public struct RunHalted: Error, CustomStringConvertible {
    /// What failed: for a journal, its `JournalError` naming the file and the system's error.
    public let reason: any Error

    /// Wraps the observer's error: why the run cannot go on.
    public init(_ reason: any Error) {
        self.reason = reason
    }

    /// A sentence for people: the reason, then that nothing more was launched.
    public var description: String {
        "\(reason); the run stopped before launching anything more"
    }
}

extension Error {
    /// Whether this error, or the root cause of a step's failure, stops the whole run: no retry,
    /// no failure handler, no recovery may launch anything after it.
    var haltsRun: Bool {
        if self is RunHalted { return true }
        return (self as? StepFailure)?.rootCause is RunHalted
    }
}
