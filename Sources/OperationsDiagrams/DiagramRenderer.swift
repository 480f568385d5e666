public import Operations

/// Turns a trace into the text of a diagram.
///
/// Conformers validate the trace first and throw instead of drawing an invalid one, and give
/// identical output for identical input (no dates, paths or hash-order dependence), so output can
/// be compared byte for byte.
public protocol DiagramRenderer: Sendable {
    /// Renders a trace.
    /// - Parameter trace: The trace to draw.
    /// - Returns: The diagram's text, ending in exactly one newline.
    /// - Throws: A `TraceError` when the trace is invalid or cannot be drawn.
    func render(_ trace: Trace) throws(TraceError) -> String
}
