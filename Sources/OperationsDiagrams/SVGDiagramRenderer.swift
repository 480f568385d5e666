public import Operations

/// Draws a trace as a message-sequence diagram in SVG, for a browser or a bug report.
///
/// ```swift
/// let svg = try SVGDiagramRenderer().render(trace)
/// ```
///
/// It draws the model and the layout of ``TextDiagramRenderer``: the same columns, the same
/// labels wrapped the same way, the same rows, as lines and boxes rather than characters. One
/// column of the text drawing is 8 pixels, one row 18; every text is set in a monospaced font
/// and given exactly the width its characters take in the text drawing (`textLength`, East
/// Asian wide characters counting two), so whatever font the viewer picks, no label overlaps
/// another or an arrow's end.
///
/// What the drawing shows, and how a reader tells things apart:
/// - participants' boxes at the top (a context service's on the row that creates it) and at the
///   bottom for every lifeline still standing, lifelines dashed, a released service's `X`;
/// - a context service's existence bar filled, an activation bar (a call to its reply, a launch
///   to its finish) white, nested bars shifted right;
/// - a call as a solid line with a filled head, a reply as a dashed line with an open head, an
///   asynchronous message as a solid line with an open head; a launch comes in from the left
///   edge and its finish leaves to it; a message to oneself as a loop;
/// - notes as yellow boxes, frames (`loop`, `alt`, `opt`, `group`, `par`) as boxes with their
///   keyword and reason in a tab and dashed lines between branches, a session's start as a
///   double rule with its name.
///
/// Output is deterministic: whole-pixel coordinates and no dates, paths or ids, so identical
/// traces give identical bytes. Every text is escaped for XML (`&`, `<`, `>`, quotes), and
/// characters XML cannot hold become U+FFFD, so a label holding markup shows as text.
///
/// Labels wrap as the text renderer wraps them at ``maxWidth``, at spaces and after `(`, `,`,
/// `.`; a diagram that cannot fit that way is drawn as narrow as it can be wrapped only there,
/// rather than with identifiers broken, names abbreviated or steps drawn apart as the text is,
/// since a picture can be scrolled or scaled.
public struct SVGDiagramRenderer: DiagramRenderer {
    /// The widest the drawing should be, in columns of the text drawing (8 pixels each).
    /// Default 100.
    public var maxWidth: Int
    /// The lifelines' left-to-right order.
    public var order: ParticipantOrder
    /// Whether lifelines still standing at the end get a box repeating the head.
    public var showFootBoxes: Bool
    /// How many lines a label may take before it ends in `…`.
    public var maxLabelLines: Int

    /// Creates an SVG renderer.
    /// - Parameters:
    ///   - maxWidth: The widest the drawing should be, in columns of the text drawing.
    ///   - order: The lifelines' left-to-right order.
    ///   - showFootBoxes: Whether to repeat head boxes at the bottom.
    ///   - maxLabelLines: How many lines a label may take before it is cut with `…`.
    public init(
        maxWidth: Int = 100, order: ParticipantOrder = .firstUse, showFootBoxes: Bool = true, maxLabelLines: Int = 4
    ) {
        self.maxWidth = maxWidth
        self.order = order
        self.showFootBoxes = showFootBoxes
        self.maxLabelLines = maxLabelLines
    }

    /// Renders a trace as an SVG document.
    /// - Parameter trace: The trace to draw.
    /// - Returns: A standalone SVG document ending in one newline; an empty picture for a trace
    ///   without lifelines.
    /// - Throws: `TraceError` when the trace is invalid.
    public func render(_ trace: Trace) throws(TraceError) -> String {
        let model = try DiagramModel(trace: trace, order: order)
        var painter = SVGPainter(model: model, layout: try layout(of: model), showFootBoxes: showFootBoxes)
        return painter.paint()
    }

    /// The text renderer's layout with labels wrapped only at spaces and punctuation: at
    /// ``maxWidth`` when that fits, else at the narrowest width that does.
    private func layout(of model: DiagramModel) throws(TraceError) -> TextLayout {
        let lines = max(maxLabelLines, 1)
        do {
            return try TextLayout(model: model, maxWidth: maxWidth, maxLabelLines: lines, breaks: .soft)
        } catch .diagramTooNarrow(let required, _) {
            return try TextLayout(model: model, maxWidth: required, maxLabelLines: lines, breaks: .soft)
        }
    }
}
