public import Operations

/// Draws a trace as a message-sequence diagram in plain text, for terminals, logs, golden files
/// and code review.
///
/// ```swift
/// let text = try TextDiagramRenderer(maxWidth: 80, charset: .ascii).render(trace)
/// ```
///
/// What the drawing promises (the criteria of `../shared/DIAGRAMS.md`, beside the repository):
/// - one lifeline per participant in ``ParticipantOrder`` order, head boxes at least one blank
///   column apart, each label on the rows above its arrow, between the arrow's ends, in the gap
///   next to the arrow's tail;
/// - every line at most ``maxWidth`` display columns wide (graphemes measured, wide characters 2,
///   combining marks 0); to fit, padding goes first, then labels wrap, then `…`; if even that
///   cannot fit, ``render(_:)-(Trace)`` throws `TraceError/diagramTooNarrow(required:available:)`;
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
    /// What to do when the lifelines do not fit ``maxWidth`` even with every label wrapped.
    public var fitting: Fitting

    /// What the renderer does with a trace whose lifelines do not fit the width.
    public enum Fitting: Hashable, Sendable {
        /// Fail with `TraceError/diagramTooNarrow(required:available:)`.
        case strict
        /// Make it fit without breaking a word where it can, in this order: labels wrapped at
        /// spaces and punctuation, then between the words of an identifier (`on` / `Finish(`);
        /// the same with long participant names abbreviated, with a legend under the drawing;
        /// then each step of the outermost operation as a section of its own
        /// (`Trace.sections()`), with only the lifelines active in it and its own heads,
        /// abbreviating within a section as needed, and a step still too wide drawn as its own
        /// steps in turn; a word is broken (`laun` / `ch(`) only when none of that fits. Only
        /// when one section cannot fit even so does rendering fail, with the width that
        /// section needs.
        case automatic
    }

    /// Creates a text renderer.
    /// - Parameters:
    ///   - maxWidth: The widest a line may be, in display columns.
    ///   - charset: Unicode box drawing or ASCII.
    ///   - order: The lifelines' left-to-right order.
    ///   - showFootBoxes: Whether to repeat head boxes at the bottom.
    ///   - maxLabelLines: How many rows a label may take before it is cut with `…`.
    ///   - fitting: Whether to abbreviate and split a diagram too wide for `maxWidth`.
    public init(
        maxWidth: Int = 100, charset: DiagramCharset = .unicode, order: ParticipantOrder = .firstUse,
        showFootBoxes: Bool = true, maxLabelLines: Int = 4, fitting: Fitting = .automatic
    ) {
        self.fitting = fitting
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
    /// - Throws: `TraceError` when the trace is invalid, or
    ///   `TraceError/diagramTooNarrow(required:available:)` when it cannot fit ``maxWidth``.
    public func render(_ trace: Trace) throws(TraceError) -> String {
        guard fitting == .automatic else { return try renderWhole(trace, breaks: .any) }
        return try renderFitting(trace, within: [])
    }

    /// ``Fitting/automatic`` (DIAGRAMS.md criterion 2), for a trace that is a step of the steps
    /// in `path` (a step too wide for the page drawn as its own steps).
    private func renderFitting(_ trace: Trace, within path: [String]) throws(TraceError) -> String {
        if let drawing = try wholeWords(trace) { return drawing }
        let sections = trace.sections()
        guard !sections.isEmpty else {
            if let drawing = try fitted(trace, breaks: .any) { return drawing }
            // Drawn again when nothing fits, to throw the width the whole drawing needs.
            return try renderWhole(trace, breaks: .any)
        }
        var parts: [String] = []
        var session: String?
        for section in sections {
            // Each session's start, as the whole drawing would show it.
            if let divider = section.session, divider != session {
                let rule = String(repeating: Glyph.noteHorizontal.spelled(in: charset), count: 2)
                parts.append(fitted("\(rule) \(divider) \(rule)") + "\n")
                session = divider
            }
            let title = Self.title(of: section)
            // The whole trace validated; a step cut out of it that does not (a service it
            // uses was created before it) is drawn as far as it balances.
            let section = (try? section.trace.validate()) == nil ? section.drawable() : section
            var drawing = try wholeWords(section.trace)
            if drawing == nil, !section.trace.sections().isEmpty {
                drawing = try? renderFitting(section.trace, within: path + [section.operation.name])
            }
            if drawing == nil { drawing = try fitted(section.trace, breaks: .any) }
            // Even abbreviated and broken, this step does not fit: say what would.
            guard let drawing else {
                return try renderWhole(section.trace.abbreviated().trace, breaks: .any)
            }
            parts.append(fitted((path + [title]).joined(separator: " › ")) + "\n" + framed(drawing, by: section))
        }
        return parts.joined(separator: "\n")
    }

    /// The trace drawn with no word broken — as it is, or else with its names abbreviated —
    /// and its labels wrapped at spaces and punctuation, or else between the words of an
    /// identifier (`on` / `Finish(`); `nil` when none of these fits.
    private func wholeWords(_ trace: Trace) throws(TraceError) -> String? {
        let breaking: [TextLayout.Breaks] = [.soft, .words]
        for breaks in breaking {
            do {
                return try renderWhole(trace, breaks: breaks)
            } catch .diagramTooNarrow {
                continue
            }
        }
        for breaks in breaking {
            if let drawing = try abbreviated(trace, breaks: breaks) { return drawing }
        }
        return nil
    }

    /// The trace drawn as it is, or else abbreviated; `nil` when neither fits.
    private func fitted(_ trace: Trace, breaks: TextLayout.Breaks) throws(TraceError) -> String? {
        do {
            return try renderWhole(trace, breaks: breaks)
        } catch .diagramTooNarrow {
            return try abbreviated(trace, breaks: breaks)
        }
    }

    /// The trace drawn with long names abbreviated and a legend under it; `nil` when there is
    /// nothing to abbreviate or it still does not fit.
    private func abbreviated(_ trace: Trace, breaks: TextLayout.Breaks) throws(TraceError) -> String? {
        let short = trace.abbreviated()
        guard !short.legend.isEmpty else { return nil }
        do {
            let drawing = try renderWhole(short.trace, breaks: breaks)
            return drawing + "\n" + short.legend.map(fitted).joined(separator: "\n") + "\n"
        } catch .diagramTooNarrow {
            return nil
        }
    }

    /// Renders one step of a run on its own (`Trace.sections()`): the notes its scenario wrote
    /// before launching it, its drawing, and the notes written after it when the run stopped
    /// there. What `opctl diagram --step` prints.
    ///
    /// - Parameter section: The step.
    /// - Returns: The text, every line at most ``maxWidth`` columns, ending in one newline.
    /// - Throws: As ``render(_:)-(Trace)``.
    public func render(_ section: TraceSection) throws(TraceError) -> String {
        framed(try render(section.trace), by: section)
    }

    /// A section's drawing with its notes above (then a blank line) and below.
    private func framed(_ drawing: String, by section: TraceSection) -> String {
        let before = noteLines(section.notesBefore).map { $0 + "\n" }.joined()
        let after = noteLines(section.notesAfter).map { $0 + "\n" }.joined()
        return before + (before.isEmpty ? "" : "\n") + drawing + (after.isEmpty ? "" : "\n" + after)
    }

    /// A section's notes as indented lines, wrapped to the width.
    private func noteLines(_ notes: [String]) -> [String] {
        notes.flatMap(LabelWrapper.paragraphs).flatMap { LabelWrapper.wrap($0, width: max(maxWidth - 4, 8)) }
            .map { "  " + fitted($0) }
    }

    /// A section's heading: its step's place among the scenario's steps (1-based, as a rerun's
    /// refusal counts them: `TraceSection.position`), its operation, and the frames it ran inside.
    private static func title(of section: TraceSection) -> String {
        let frames = section.frames.isEmpty ? "" : " in " + section.frames.joined(separator: " / ")
        return "step \(section.position) of \(section.stepCount): \(section.operation.name)\(frames)"
    }

    /// A line of text for the drawing: in the charset, cut with `…` to the width.
    private func fitted(_ line: String) -> String {
        let text = LabelWrapper.sanitize(line)
        let cut = text.displayWidth <= maxWidth ? text : LabelWrapper.ellipsized(text, width: maxWidth)
        guard charset == .ascii, !cut.utf8.allSatisfy({ $0 < 0x80 }) else { return cut }
        // Mapped to ASCII as the drawing's own text is.
        var canvas = TextCanvas(width: max(cut.displayWidth, 1), charset: .ascii)
        canvas.put(text: cut, canvas.addRow(), 0)
        return String(canvas.output().dropLast())
    }

    private func renderWhole(_ trace: Trace, breaks: TextLayout.Breaks) throws(TraceError) -> String {
        let model = try DiagramModel(trace: trace, order: order)
        let layout = try TextLayout(
            model: model, maxWidth: maxWidth, maxLabelLines: max(maxLabelLines, 1), breaks: breaks)
        var painter = TextPainter(model: model, layout: layout, charset: charset, showFootBoxes: showFootBoxes)
        return painter.paint()
    }
}
