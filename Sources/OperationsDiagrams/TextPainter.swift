import Operations

/// Paints a laid-out diagram row by row.
///
/// Rows come in blocks, one per step: the label rows, the arrow row (or the rows of a loop or a
/// note), then the closing rows where bars end, head boxes of created services close, and Xs
/// stand. One blank row separates blocks. Every row first gets the lifelines and bars of the
/// columns alive on it, then the step's own drawing on top.
struct TextPainter {
    /// What a closing row does to a column (``closingMarks(of:)``), shared with ``SVGPainter``.
    enum Mark {
        case barEnd, cross, boxBottom, barStart
    }

    private let model: DiagramModel
    private let layout: TextLayout
    private let showFootBoxes: Bool
    private var canvas: TextCanvas
    /// How deep each column's bars are nested, and whether its lifeline stands.
    private var depth: [Int]
    private var alive: [Bool]
    /// How many frames are open: their borders stand on every row.
    private var openFrames = 0

    init(model: DiagramModel, layout: TextLayout, charset: DiagramCharset, showFootBoxes: Bool) {
        self.model = model
        self.layout = layout
        self.showFootBoxes = showFootBoxes
        canvas = TextCanvas(width: layout.width, charset: charset)
        depth = Array(repeating: 0, count: model.columns.count)
        // Key services and operations have a head box at the top; context services get theirs
        // where they are created.
        alive = model.columns.map { $0.participant.kind != .contextService }
    }

    mutating func paint() -> String {
        guard !model.columns.isEmpty else { return "" }
        if alive.contains(true) {
            paintBoxes(for: alive, foot: false)
        }
        for index in model.steps.indices {
            if index > 0 { baseRow() }
            paint(step: index)
            canvas.flush()
        }
        if showFootBoxes && alive.contains(true) {
            if !model.steps.isEmpty { baseRow() }
            paintBoxes(for: alive, foot: true)
        }
        return canvas.output()
    }

    /// Adds a row showing every alive lifeline and bar.
    @discardableResult
    private mutating func baseRow() -> Int {
        let row = canvas.addRow()
        for column in alive.indices where alive[column] {
            let x = layout.x[column]
            let level = depth[column]
            if level == 0 {
                canvas.put(.vertical, row, x)
            } else {
                canvas.put(.vertical, row, x - 1)
                canvas.put(.vertical, row, from: x + 1, through: x + level)
            }
        }
        for level in 0..<min(openFrames, layout.frameColumns) {
            canvas.put(.vertical, row, level)
            canvas.put(.vertical, row, layout.width - 1 - level)
        }
        return row
    }

    /// Opens (`┌┴┐`, nested `├┐`) or closes (`└┬┘`, nested `├┘`) a column's innermost bar.
    private mutating func bar(_ column: Int, row: Int, opens: Bool) {
        let x = layout.x[column]
        // How many bars stand around this one.
        let level = opens ? depth[column] : depth[column] - 1
        guard level >= 0 else { return }
        if level == 0 {
            rule(row, from: x - 1, to: x + 1, corners: opens ? (.topLeft, .topRight) : (.bottomLeft, .bottomRight))
            canvas.put(opens ? .barJoinUp : .barJoinDown, row, x)
        } else {
            canvas.put(.teeRight, row, x + level)
            canvas.put(opens ? .topRight : .bottomRight, row, x + level + 1)
        }
        depth[column] = opens ? level + 1 : level
    }

    /// A box's top or bottom edge: its corners at `left` and `right`, `fill` between them.
    private mutating func rule(
        _ row: Int, from left: Int, to right: Int, corners: (Glyph, Glyph), fill: Glyph = .horizontal
    ) {
        canvas.put(corners.0, row, left)
        canvas.put(fill, row, from: left + 1, through: right - 1)
        canvas.put(corners.1, row, right)
    }

    /// The head (or, `foot`, the foot) boxes of the `included` columns, the lifeline leaving
    /// a head box below and entering a foot box above.
    private mutating func paintBoxes(for included: [Bool], foot: Bool) {
        let (top, middle, bottom) = (canvas.addRow(), canvas.addRow(), canvas.addRow())
        for column in model.columns.indices where included[column] {
            let (left, right) = boxEdges(column)
            rule(top, from: left, to: right, corners: (.topLeft, .topRight))
            boxMiddle(column, row: middle)
            rule(bottom, from: left, to: right, corners: (.bottomLeft, .bottomRight))
            canvas.put(foot ? .teeUp : .teeDown, foot ? top : bottom, layout.x[column])
        }
    }

    private func boxEdges(_ column: Int) -> (left: Int, right: Int) {
        (layout.x[column] - layout.columns[column].boxLeft, layout.x[column] + layout.columns[column].boxRight)
    }

    /// A head box's row with the participant's name.
    private mutating func boxMiddle(_ column: Int, row: Int) {
        let (left, right) = boxEdges(column)
        canvas.put(.vertical, row, left)
        canvas.put(text: layout.columns[column].name, row, left + 1)
        canvas.put(.vertical, row, right)
    }

    private mutating func paint(step index: Int) {
        let step = model.steps[index]
        let marks = Self.closingMarks(of: step)
        switch step.action {
        case .note(let column):
            paintNote(column: column, lines: layout.lines[index])
        case .frameOpen(_, let level, _):
            // A frame sharing its outer frame's border joins it with tees.
            let corners: (Glyph, Glyph) =
                layout.sharesBorder(level: level) ? (.teeRight, .teeLeft) : (.topLeft, .topRight)
            paintFrameEdge(
                start: layout.frameBorder(level: level), corners: corners, fill: .horizontal,
                lines: layout.lines[index])
            openFrames += 1
        case .frameBranch(_, let level):
            paintFrameEdge(
                start: layout.frameBorder(level: level), corners: (.teeRight, .teeLeft), fill: .frameDash,
                lines: layout.lines[index])
        case .frameClose(let level):
            let corners: (Glyph, Glyph) =
                layout.sharesBorder(level: level) ? (.teeRight, .teeLeft) : (.bottomLeft, .bottomRight)
            paintFrameEdge(start: layout.frameBorder(level: level), corners: corners, fill: .horizontal, lines: [])
            openFrames -= 1
        case .divider(let level):
            // A session's start: a double rule, as PlantUML draws `== label ==`.
            paintFrameEdge(
                start: layout.inside(level: level), corners: (.noteHorizontal, .noteHorizontal),
                fill: .noteHorizontal, lines: layout.lines[index])
        case .message(let from, let to, let style) where from == to:
            if let column = from.column { paintLoop(column: column, style: style, lines: layout.lines[index]) }
        default:
            paintArrowStep(step, placement: layout.placements[index], lines: layout.lines[index])
        }
        for position in 0..<(marks.map(\.row).max().map { $0 + 1 } ?? 0) {
            let row = baseRow()
            // Columns in the order they got their first mark (every marked column has one on
            // row 0), each with its mark for this row.
            for first in marks where first.row == 0 {
                guard let entry = marks.first(where: { $0.column == first.column && $0.row == position }) else {
                    continue
                }
                apply(entry.mark, column: entry.column, row: row)
            }
        }
    }

    /// What happens to each column on the closing rows of a step: a column's marks go on
    /// successive rows (`row`, from 0), in the order they are added.
    static func closingMarks(of step: DiagramModel.Step) -> [(column: Int, mark: Mark, row: Int)] {
        var marks: [(column: Int, mark: Mark, row: Int)] = []
        func add(_ column: Int, _ mark: Mark) {
            var row = 0
            for entry in marks where entry.column == column { row += 1 }
            marks.append((column, mark, row))
        }
        var created: Int?
        if case .create(_, let column) = step.action {
            created = column
            add(column, .boxBottom)
            if step.createdHasLife { add(column, .barStart) }
        }
        if step.closesBar, let sender = step.sender.column { add(sender, .barEnd) }
        for ending in step.endings {
            if ending.column == created {
                if ending.crossed { add(ending.column, .cross) }
                continue
            }
            if ending.hadBar { add(ending.column, .barEnd) }
            if ending.crossed { add(ending.column, .cross) }
        }
        return marks
    }

    private mutating func apply(_ mark: Mark, column: Int, row: Int) {
        let x = layout.x[column]
        switch mark {
        case .barEnd:
            bar(column, row: row, opens: false)
        case .cross:
            canvas.put(.cross, row, x)
            alive[column] = false
        case .boxBottom:
            let (left, right) = boxEdges(column)
            rule(row, from: left, to: right, corners: (.bottomLeft, .bottomRight))
            canvas.put(.teeDown, row, x)
            alive[column] = true
        case .barStart:
            bar(column, row: row, opens: true)
        }
    }

    private mutating func paintArrowStep(_ step: DiagramModel.Step, placement: TextLayout.Placement, lines: [String]) {
        let sender = step.sender
        let receiver = step.receiver
        // Label rows; the receiver's bar and a created head box start on the last one.
        let labelLines = lines.isEmpty ? [""] : lines
        let (style, created, starts) = layout.arrow(step, placement: placement, lines: labelLines)
        var lastLabelRow = 0
        for (line, start) in zip(labelLines, starts) {
            lastLabelRow = baseRow()
            if !line.isEmpty { canvas.put(text: line, lastLabelRow, start) }
        }
        if step.opensBar, let column = receiver.column { bar(column, row: lastLabelRow, opens: true) }
        if let created {
            let (left, right) = boxEdges(created)
            rule(lastLabelRow, from: left, to: right, corners: (.topLeft, .topRight))
        }

        let row = baseRow()
        if let created { boxMiddle(created, row: row) }
        let from = position(of: sender)
        let to = position(of: receiver)
        let rightward = from < to || (from == to && sender == .edge)
        let tail = attach(sender, rightSide: rightward)
        drawArrow(row: row, tail: tail, head: attach(receiver, rightSide: !rightward, created: created), style: style)
    }

    /// A column's horizontal order; the edge is left of everything.
    private func position(of end: DiagramModel.End) -> Int {
        end.column.map { layout.x[$0] } ?? -1
    }

    /// The cell next to a lifeline, bar or created box where an arrow touches it.
    private func attach(_ end: DiagramModel.End, rightSide: Bool, created: Int? = nil) -> Int {
        guard let column = end.column else { return 0 }
        let x = layout.x[column]
        if column == created {
            let geometry = layout.columns[column]
            return rightSide ? x + geometry.boxRight + 1 : x - geometry.boxLeft - 1
        }
        let level = depth[column]
        if rightSide { return x + level + 1 }
        return x - (level > 0 ? 1 : 0) - 1
    }

    /// Draws a horizontal arrow from its tail cell to its head cell (inclusive).
    ///
    /// A dashed line alternates line and gap counted from the head, always ends in a line cell at
    /// the tail so it visibly leaves its bar, and fills a gap that falls on a crossed lifeline so
    /// the arrow never looks interrupted; the alternation starts again after the crossing, so
    /// a crossing shows as `─ ──│` at worst, never as a solid run of three.
    private mutating func drawArrow(row: Int, tail: Int, head: Int, style: MessageStyle) {
        let step = head > tail ? -1 : 1
        let length = abs(head - tail) + 1
        canvas.put(head > tail ? .headRight : .headLeft, row, head)
        guard length > 1 else { return }
        var dashNext = true
        for distance in 1..<length {
            let column = head + distance * step
            switch style {
            case .call:
                canvas.put(.horizontal, row, column)
            case .async:
                canvas.put(.wave, row, column)
            case .reply:
                let crossing = !canvas.isBlank(row, column)
                if dashNext || crossing || distance == length - 1 { canvas.put(.horizontal, row, column) }
                dashNext = crossing ? false : !dashNext
            }
        }
    }

    /// A frame's top, branch or bottom: a rule from its left border to its right one, crossing
    /// every lifeline and bar (`┼`), with the tab — keyword and reason — set into it at the left.
    /// The rule is the one row where nothing else is drawn, so the tab covers no label or arrow.
    private mutating func paintFrameEdge(start left: Int, corners: (Glyph, Glyph), fill: Glyph, lines: [String]) {
        let row = baseRow()
        let right = layout.width - 1 - left
        for column in (left + 1)..<right {
            canvas.put(canvas.isLine(row, column) ? .crossing : fill, row, column)
        }
        canvas.put(corners.0, row, left)
        canvas.put(corners.1, row, right)
        guard let tab = lines.first, !tab.isEmpty else { return }
        let start = TextLayout.frameTextStart(ruleStart: left)
        canvas.clear(row, start - 1)
        canvas.put(text: tab, row, start)
        canvas.clear(row, start + tab.displayWidth)
    }

    /// A loop leaving the bar's right edge, at least three rows tall, with the label on its right.
    private mutating func paintLoop(column: Int, style: MessageStyle, lines: [String]) {
        let rows = max(3, lines.count + 1)
        let x = layout.x[column]
        let start = x + depth[column] + 1
        let corner = start + 3
        let line: Glyph = style == .async ? .wave : .horizontal
        for index in 0..<rows {
            let row = baseRow()
            if index == 0 {
                canvas.put(line, row, start)
                if style != .reply { canvas.put(line, row, start + 1) }
                canvas.put(line, row, start + 2)
                canvas.put(.topRight, row, corner)
            } else if index == rows - 1 {
                canvas.put(.headLeft, row, start)
                canvas.put(line, row, start + 1)
                if style != .reply { canvas.put(line, row, start + 2) }
                canvas.put(.bottomRight, row, corner)
            } else {
                canvas.put(.vertical, row, corner)
            }
            if index < lines.count { canvas.put(text: lines[index], row, corner + 2) }
        }
    }

    /// A double-bordered box right of the lifeline, text left-aligned.
    private mutating func paintNote(column: Int, lines: [String]) {
        let start = layout.noteStart(column: column)
        let textWidth = lines.map(\.displayWidth).max() ?? 0
        let end = start + textWidth + 3
        rule(baseRow(), from: start, to: end, corners: (.noteTopLeft, .noteTopRight), fill: .noteHorizontal)
        for line in lines {
            let row = baseRow()
            canvas.put(.noteVertical, row, start)
            // A box over idle lifelines hides them: blank its inside before the text goes in.
            for column in start + 1..<end { canvas.clear(row, column) }
            canvas.put(text: line, row, start + 2)
            canvas.put(.noteVertical, row, end)
        }
        rule(baseRow(), from: start, to: end, corners: (.noteBottomLeft, .noteBottomRight), fill: .noteHorizontal)
    }
}
