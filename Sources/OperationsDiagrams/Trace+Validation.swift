public import Operations

extension Trace {
    /// Checks that the trace describes something that can happen and can be drawn.
    ///
    /// A valid trace declares every participant before using it, creates a context service before
    /// it takes part in a message and never uses it after its release, answers every reply to an
    /// open call, finishes each operation once after launching it, and leaves no operation
    /// running at the end. Renderers run the same check.
    /// - Throws: A `TraceError` naming the first offending event.
    public func validate() throws(TraceError) {
        _ = try DiagramModel(trace: self, order: .firstUse)
    }
}
