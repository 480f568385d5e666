import Operations

/// Paints a laid-out diagram as SVG, in the rows and columns of the text drawing.
///
/// A step is the block of rows ``TextPainter`` gives it: its label rows, its arrow row (or the
/// rows of a loop or a note), its closing rows (`TextPainter.closingMarks(of:)`), and one blank
/// row before the next step. A column of the text drawing is ``cellWidth`` pixels, a row
/// ``rowHeight``. Lifelines and bars are written once they end, as one line or box each, in
/// layers under the arrows, boxes and texts.
struct SVGPainter {
    static let cellWidth = 8
    static let rowHeight = 18
    static let margin = 8
    /// Half a bar's width, and how far a nested bar is shifted right of the one it is in.
    static let barHalfWidth = 5
    static let barShift = 6

    private let model: DiagramModel
    private let layout: TextLayout
    private let showFootBoxes: Bool
    private var rows = 0
    /// Each column's open bars, outermost first: where each starts, and whether it is a context
    /// service's existence rather than an activation.
    private var bars: [[(top: Int, existence: Bool)]]
    /// Where each standing lifeline starts; `nil` where none stands.
    private var lifelines: [Int?]
    /// The top row of each created service's head box, until its bottom row.
    private var createdTops: [Int: Int] = [:]
    /// The frames open now, innermost last: their top row and left border column.
    private var frames: [(row: Int, left: Int)] = []
    private var frameLayer = SVGMarkup()
    private var lifelineLayer = SVGMarkup()
    /// Bars by nesting level, so an outer bar is drawn under the bars nested in it.
    private var barLayers: [SVGMarkup] = []
    private var shapeLayer = SVGMarkup()
    private var textLayer = SVGMarkup()

    init(model: DiagramModel, layout: TextLayout, showFootBoxes: Bool) {
        self.model = model
        self.layout = layout
        self.showFootBoxes = showFootBoxes
        bars = Array(repeating: [], count: model.columns.count)
        lifelines = Array(repeating: nil, count: model.columns.count)
    }

    mutating func paint() -> String {
        guard !model.columns.isEmpty else { return document() }
        // Key services and operations have a head box at the top; context services get theirs
        // where they are created.
        let standing = model.columns.map { $0.participant.kind != .contextService }
        if standing.contains(true) { paintBoxes(for: standing, foot: false) }
        for index in model.steps.indices {
            if index > 0 { rows += 1 }
            paint(step: index)
        }
        let alive = lifelines.map { $0 != nil }
        if showFootBoxes && alive.contains(true) {
            if !model.steps.isEmpty { rows += 1 }
            paintBoxes(for: alive, foot: true)
        }
        for column in lifelines.indices { endLifeline(column, at: top(rows)) }
        return document()
    }

    private func document() -> String {
        let width = 2 * Self.margin + layout.width * Self.cellWidth
        let height = 2 * Self.margin + rows * Self.rowHeight
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" \
            font-size="13" xml:space="preserve">
            <rect width="\(width)" height="\(height)" fill="#fff"/>
            <g fill="none" stroke="#777">
            \(frameLayer.text)</g>
            <g stroke="#999" stroke-dasharray="4 3">
            \(lifelineLayer.text)</g>
            <g stroke="#34495e">
            \(barLayers.map(\.text).joined())</g>
            <g fill="none" stroke="#222">
            \(shapeLayer.text)</g>
            <g fill="#111">
            \(textLayer.text)</g>
            </svg>

            """
    }

    // MARK: - Coordinates

    /// The middle of a text column, in pixels.
    private func center(_ cell: Int) -> Int { Self.margin + cell * Self.cellWidth + Self.cellWidth / 2 }
    private func top(_ row: Int) -> Int { Self.margin + row * Self.rowHeight }
    private func middle(_ row: Int) -> Int { top(row) + Self.rowHeight / 2 }
    private func lifeline(_ column: Int) -> Int { center(layout.x[column]) }

    private mutating func addRow() -> Int {
        rows += 1
        return rows - 1
    }

    /// Sets a text in the cells the text drawing gives it, `bold` its leading keyword.
    private mutating func text(_ line: String, column: Int, row: Int, bold: String = "") {
        let width = line.displayWidth
        guard width > 0 else { return }
        textLayer.text(
            line, x: Self.margin + column * Self.cellWidth, y: top(row) + 13, width: width * Self.cellWidth, bold: bold)
    }

    // MARK: - Steps

    private mutating func paint(step index: Int) {
        let step = model.steps[index]
        let lines = layout.lines[index]
        switch step.action {
        case .note(let column):
            paintNote(column: column, lines: lines)
        case .frameOpen(let kind, let level, _):
            let row = addRow()
            let left = layout.frameBorder(level: level)
            frames.append((row, left))
            paintTab(lines.first ?? kind.rawValue, keyword: kind.rawValue, row: row, left: left)
        case .frameBranch(let kind, let level):
            let row = addRow()
            let left = layout.frameBorder(level: level)
            frameLayer.line(
                center(left), top(row), center(layout.width - 1 - left), top(row), " stroke-dasharray=\"6 4\"")
            if let tab = lines.first {
                paintLabel(tab, keyword: kind == .par ? "and" : "else", row: row, ruleStart: left)
            }
        case .frameClose:
            let row = addRow()
            guard let frame = frames.popLast() else { break }
            let left = center(frame.left)
            frameLayer.rect(
                left, top(frame.row), center(layout.width - 1 - frame.left) - left, middle(row) - top(frame.row))
        case .divider(let level):
            // A session's start: a double rule across, its name in a box on it.
            let row = addRow()
            let start = layout.inside(level: level)
            for offset in [-2, 2] {
                shapeLayer.line(
                    center(start), middle(row) + offset, center(layout.width - 1 - start), middle(row) + offset,
                    " stroke=\"#777\"")
            }
            if let label = lines.first { paintLabel(label, keyword: "", row: row, ruleStart: start) }
        case .message(let from, let to, let style) where from == to:
            if let column = from.column { paintLoop(column: column, style: style, lines: lines) }
        default:
            paintArrowStep(step, placement: layout.placements[index], lines: lines)
        }
        let marks = TextPainter.closingMarks(of: step)
        let first = rows
        rows += (marks.map(\.row).max() ?? -1) + 1
        for entry in marks { apply(entry.mark, column: entry.column, row: first + entry.row) }
    }

    private mutating func apply(_ mark: TextPainter.Mark, column: Int, row: Int) {
        switch mark {
        case .barEnd:
            closeBar(column, row: row)
        case .cross:
            let (x, y) = (lifeline(column), middle(row))
            shapeLayer.line(x - 5, y - 5, x + 5, y + 5, " stroke-width=\"2\"")
            shapeLayer.line(x - 5, y + 5, x + 5, y - 5, " stroke-width=\"2\"")
            endLifeline(column, at: y)
        case .boxBottom:
            paintBox(column, topRow: createdTops.removeValue(forKey: column) ?? row - 2, bottomRow: row)
            lifelines[column] = middle(row)
        case .barStart:
            bars[column].append((middle(row), true))
        }
    }

    private mutating func closeBar(_ column: Int, row: Int) {
        guard let bar = bars[column].popLast() else { return }
        let level = bars[column].count
        while barLayers.count <= level { barLayers.append(SVGMarkup()) }
        barLayers[level].rect(
            lifeline(column) - Self.barHalfWidth + level * Self.barShift, bar.top, 2 * Self.barHalfWidth,
            middle(row) - bar.top, bar.existence ? " fill=\"#cfdff3\"" : " fill=\"#fff\"")
    }

    private mutating func endLifeline(_ column: Int, at y: Int) {
        guard let start = lifelines[column] else { return }
        lifelineLayer.line(lifeline(column), start, lifeline(column), y)
        lifelines[column] = nil
    }

    /// The head (or, `foot`, the foot) boxes of the `included` columns.
    private mutating func paintBoxes(for included: [Bool], foot: Bool) {
        let first = rows
        rows += 3
        for column in model.columns.indices where included[column] {
            paintBox(column, topRow: first, bottomRow: first + 2)
            if foot {
                endLifeline(column, at: middle(first))
            } else {
                lifelines[column] = middle(first + 2)
            }
        }
    }

    private mutating func paintBox(_ column: Int, topRow: Int, bottomRow: Int) {
        let geometry = layout.columns[column]
        let left = layout.x[column] - geometry.boxLeft
        let right = layout.x[column] + geometry.boxRight
        shapeLayer.rect(
            center(left), middle(topRow), center(right) - center(left), middle(bottomRow) - middle(topRow),
            " fill=\"#eef3fb\" stroke=\"#34495e\"")
        text(geometry.name, column: left + 1, row: topRow + 1)
    }

    private mutating func paintArrowStep(_ step: DiagramModel.Step, placement: TextLayout.Placement, lines: [String]) {
        let labelLines = lines.isEmpty ? [""] : lines
        let (style, created, starts) = layout.arrow(step, placement: placement, lines: labelLines)
        var lastLabelRow = 0
        for (line, start) in zip(labelLines, starts) {
            lastLabelRow = addRow()
            text(line, column: start, row: lastLabelRow)
        }
        if step.opensBar, let column = step.receiver.column { bars[column].append((middle(lastLabelRow), false)) }
        if let created { createdTops[created] = lastLabelRow }

        let y = middle(addRow())
        let from = step.sender.column.map { layout.x[$0] } ?? -1
        let to = step.receiver.column.map { layout.x[$0] } ?? -1
        let rightward = from < to || (from == to && step.sender == .edge)
        arrow(
            from: attach(step.sender, rightSide: rightward),
            to: attach(step.receiver, rightSide: !rightward, created: created),
            y: y, style: style)
    }

    /// Where an arrow touches a lifeline, its outermost bar, or the head box being created.
    private func attach(_ end: DiagramModel.End, rightSide: Bool, created: Int? = nil) -> Int {
        guard let column = end.column else { return Self.margin }
        if column == created {
            let geometry = layout.columns[column]
            return center(layout.x[column] + (rightSide ? geometry.boxRight : -geometry.boxLeft))
        }
        let depth = bars[column].count
        guard depth > 0 else { return lifeline(column) }
        return rightSide
            ? lifeline(column) + Self.barHalfWidth + (depth - 1) * Self.barShift : lifeline(column) - Self.barHalfWidth
    }

    /// A call: solid, filled head; a reply: dashed, open head; an asynchronous message: solid,
    /// open head.
    private mutating func arrow(from tail: Int, to head: Int, y: Int, style: MessageStyle) {
        shapeLayer.line(tail, y, head, y, style == .reply ? " stroke-dasharray=\"6 4\"" : "")
        arrowHead(at: head, y: y, pointingRight: head > tail, filled: style == .call)
    }

    private mutating func arrowHead(at x: Int, y: Int, pointingRight: Bool, filled: Bool) {
        let back = pointingRight ? x - 8 : x + 8
        let points = "\(back),\(y - 4) \(x),\(y) \(back),\(y + 4)"
        shapeLayer.raw(
            filled ? "<polygon points=\"\(points)\" fill=\"#222\"/>\n" : "<polyline points=\"\(points)\"/>\n")
    }

    /// A loop leaving the bar's right edge and coming back, at least three rows tall, with the
    /// label right of it.
    private mutating func paintLoop(column: Int, style: MessageStyle, lines: [String]) {
        let count = max(3, lines.count + 1)
        let first = rows
        rows += count
        let start = attach(.column(column), rightSide: true)
        let cornerCell = layout.x[column] + bars[column].count + 4
        let (corner, yTop, yBottom) = (center(cornerCell), middle(first), middle(first + count - 1))
        let dash = style == .reply ? " stroke-dasharray=\"6 4\"" : ""
        shapeLayer.raw(
            "<polyline points=\"\(start),\(yTop) \(corner),\(yTop) \(corner),\(yBottom) \(start),\(yBottom)\"\(dash)/>\n"
        )
        arrowHead(at: start, y: yBottom, pointingRight: false, filled: style == .call)
        for (index, line) in lines.enumerated() { text(line, column: cornerCell + 2, row: first + index) }
    }

    /// A yellow box right of the lifeline, text left-aligned.
    private mutating func paintNote(column: Int, lines: [String]) {
        let start = layout.noteStart(column: column)
        let end = start + (lines.map(\.displayWidth).max() ?? 0) + 3
        let first = rows
        rows += lines.count + 2
        shapeLayer.rect(
            center(start), middle(first), center(end) - center(start), middle(first + lines.count + 1) - middle(first),
            " fill=\"#fff8c5\" stroke=\"#b5a642\"")
        for (index, line) in lines.enumerated() { text(line, column: start + 2, row: first + 1 + index) }
    }

    /// A frame's tab: its keyword and reason in the top row, where the text drawing sets them
    /// into the frame's rule, over whatever lifeline or bar passes there.
    private mutating func paintTab(_ tab: String, keyword: String, row: Int, left: Int) {
        let start = TextLayout.frameTextStart(ruleStart: left)
        let right = Self.margin + (start + tab.displayWidth + 1) * Self.cellWidth
        let (x, y, bottom) = (center(left), top(row), top(row) + Self.rowHeight)
        shapeLayer.raw(
            "<polygon points=\"\(x),\(y) \(right),\(y) \(right),\(bottom - 5) \(right - 5),\(bottom) \(x),\(bottom)\" fill=\"#eeeeee\" stroke=\"#777\"/>\n"
        )
        text(tab, column: start, row: row, bold: keyword)
    }

    /// A branch's guard or a session's name on its rule, on a white ground over the lines it
    /// crosses.
    private mutating func paintLabel(_ label: String, keyword: String, row: Int, ruleStart: Int) {
        let start = TextLayout.frameTextStart(ruleStart: ruleStart)
        shapeLayer.rect(
            Self.margin + start * Self.cellWidth - 4, top(row) + 1, (label.displayWidth * Self.cellWidth) + 8,
            Self.rowHeight - 2, " fill=\"#fff\" stroke=\"none\"")
        text(label, column: start, row: row, bold: keyword)
    }
}
