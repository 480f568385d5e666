public import Operations

/// Collects the diagnostics of the launches it is installed for, so a test can assert that an
/// operation finished twice, or was abandoned — or that nothing went wrong.
public final class DiagnosticsRecorder: OpDiagnostics {
    private let recorded = LockedState<[OpDiagnostic]>([])

    /// Creates an empty recorder.
    public init() {}

    /// Records one diagnostic; called on the thread where it happened.
    public func report(_ diagnostic: OpDiagnostic) {
        recorded.withLock { $0.append(diagnostic) }
    }

    /// Everything reported so far, in order.
    public var diagnostics: [OpDiagnostic] { recorded.withLock { $0 } }

    /// How many diagnostics of `kind` were reported.
    ///
    /// - Parameter kind: The kind to count.
    /// - Returns: The count.
    public func count(_ kind: OpDiagnostic.Kind) -> Int {
        recorded.withLock { $0.count { $0.kind == kind } }
    }
}
