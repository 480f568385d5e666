import Operations

/// How strictly `Trace.mismatch(expecting:matching:width:)` compares.
public enum TraceMatching: Hashable, Sendable {
    /// The trace's messages must be exactly the expected ones, in order: any unexpected message
    /// is a mismatch. The default for unit tests of one operation.
    case exhaustive
    /// The expected messages must appear in order, other messages may come between them. For
    /// integration tests that care about a few messages.
    case subsequence
}
