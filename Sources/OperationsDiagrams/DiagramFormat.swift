public import Operations

/// The formats the engine draws a trace in, chosen by name: the one place that maps a format to
/// its renderer, so a command-line tool, a catalog of named diagrams and a test all draw alike.
///
/// ```swift
/// let text = try DiagramFormat.mermaid.render(tracer.trace)
/// ```
public enum DiagramFormat: String, CaseIterable, Sendable {
    /// Unicode box drawing (``TextDiagramRenderer`` with ``DiagramCharset/unicode``).
    case unicode
    /// 7-bit ASCII with the same geometry (``TextDiagramRenderer`` with ``DiagramCharset/ascii``).
    case ascii
    /// PlantUML source (``PlantUMLRenderer``).
    case plantuml
    /// Mermaid `sequenceDiagram` source (``MermaidRenderer``).
    case mermaid
    /// An SVG picture (``SVGDiagramRenderer``), laid out as the text diagram is.
    case svg

    /// The file extension of a diagram saved in this format (`txt`, `ascii.txt`, `puml`, `mmd`,
    /// `svg`).
    public var fileExtension: String {
        switch self {
        case .unicode: "txt"
        case .ascii: "ascii.txt"
        case .plantuml: "puml"
        case .mermaid: "mmd"
        case .svg: "svg"
        }
    }

    /// Whether the format is drawn as text to read, which fits a width, rather than source for
    /// another tool or a picture.
    public var isText: Bool { self == .unicode || self == .ascii }

    /// Draws a trace.
    ///
    /// - Parameters:
    ///   - trace: The trace to draw.
    ///   - width: The widest line of the text formats, and the width in columns an SVG's labels
    ///     wrap to; the source formats ignore it.
    /// - Returns: The diagram, ending in one newline.
    /// - Throws: A `TraceError` when the trace is invalid, or a text diagram cannot fit `width`.
    public func render(_ trace: Trace, width: Int = 100) throws(TraceError) -> String {
        switch self {
        case .unicode, .ascii: try textRenderer(width: width).render(trace)
        case .plantuml: try PlantUMLRenderer().render(trace)
        case .mermaid: try MermaidRenderer().render(trace)
        case .svg: try SVGDiagramRenderer(maxWidth: width).render(trace)
        }
    }

    /// Draws one step of a run (`Trace.sections()`). The text formats print the scenario's notes
    /// about the step beside it, since the section has no lifeline of the scenario's; the source
    /// formats and SVG draw the step's own trace.
    ///
    /// - Parameters:
    ///   - section: The step to draw.
    ///   - width: The widest line of the text formats; the source formats ignore it.
    /// - Returns: The diagram, ending in one newline.
    /// - Throws: A `TraceError` when the trace is invalid, or a text diagram cannot fit `width`.
    public func render(_ section: TraceSection, width: Int = 100) throws(TraceError) -> String {
        guard isText else { return try render(section.trace, width: width) }
        return try textRenderer(width: width).render(section)
    }

    private func textRenderer(width: Int) -> TextDiagramRenderer {
        TextDiagramRenderer(maxWidth: width, charset: self == .ascii ? .ascii : .unicode)
    }
}
