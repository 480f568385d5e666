/// Draws a trace as a message-sequence diagram in plain text, for terminals, logs, golden files
/// and code review.
///
/// ```swift
/// let text = try TextDiagramRenderer(maxWidth: 80, charset: .ascii).render(trace)
/// ```
///
/// What the drawing promises (DIAGRAMS.md):
/// - one lifeline per participant in ``ParticipantOrder`` order, head boxes at least one blank
///   column apart, each label on the rows above its arrow, between the arrow's ends, in the gap
///   next to the arrow's tail;
/// - every line at most ``maxWidth`` display columns wide (graphemes measured, wide characters 2,
///   combining marks 0); to fit, padding goes first, then labels wrap, then `…`; if even that
///   cannot fit, ``render(_:)`` throws ``TraceError/diagramTooNarrow(required:available:)``;
/// - a message is its label rows plus one arrow row, with one blank row between steps;
/// - key services and operations: head box at the top, lifeline for the whole height, foot box;
///   context services: head box on the row that creates them, the creating arrow pointing into
///   it, an existence bar through their last message, `╳` on the row after, nothing above or
///   below;
/// - activation bars from a call to its reply (included), from launch to onFinish; a nested bar
///   widens the bar by one column and adds no row;
/// - arrows as listed in ``DiagramCharset``; self-messages as a loop of three or more rows;
///   launch in from the left edge, onFinish out to it; notes wrapped to the free width;
/// - identical bytes for an identical trace, `\n` line ends, no tabs, no trailing spaces, one
///   final newline.
///
/// Rendering is linear in the number of events.
public struct TextDiagramRenderer: DiagramRenderer {
    /// The widest a line may be, in display columns. Default 100.
    public var maxWidth: Int
    /// Unicode box drawing or 7-bit ASCII, with the same geometry.
    public var charset: DiagramCharset
    /// The lifelines' left-to-right order.
    public var order: ParticipantOrder
    /// Whether alive lifelines end in a foot box repeating the head.
    public var showFootBoxes: Bool
    /// How many rows a label may take before it ends in `…`.
    public var maxLabelLines: Int

    /// Creates a text renderer.
    /// - Parameters:
    ///   - maxWidth: The widest a line may be, in display columns.
    ///   - charset: Unicode box drawing or ASCII.
    ///   - order: The lifelines' left-to-right order.
    ///   - showFootBoxes: Whether to repeat head boxes at the bottom.
    ///   - maxLabelLines: How many rows a label may take before it is cut with `…`.
    public init(
        maxWidth: Int = 100, charset: DiagramCharset = .unicode, order: ParticipantOrder = .firstUse,
        showFootBoxes: Bool = true, maxLabelLines: Int = 4
    ) {
        self.maxWidth = maxWidth
        self.charset = charset
        self.order = order
        self.showFootBoxes = showFootBoxes
        self.maxLabelLines = maxLabelLines
    }

    /// Renders a trace as text.
    /// - Parameter trace: The trace to draw.
    /// - Returns: The drawing, every line at most ``maxWidth`` columns, ending in one newline;
    ///   empty for a trace without lifelines.
    /// - Throws: ``TraceError`` when the trace is invalid, or
    ///   ``TraceError/diagramTooNarrow(required:available:)`` when it cannot fit ``maxWidth``.
    public func render(_ trace: Trace) throws(TraceError) -> String {
        let model = try DiagramModel(trace: trace, order: order)
        let layout = try TextLayout(model: model, maxWidth: maxWidth, maxLabelLines: max(maxLabelLines, 1))
        var painter = TextPainter(model: model, layout: layout, charset: charset, showFootBoxes: showFootBoxes)
        return painter.paint()
    }
}
