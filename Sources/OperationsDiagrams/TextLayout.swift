import Operations

/// Where every lifeline goes and how every label wraps, for a given maximum width.
///
/// The diagram is a row of gaps: gap 0 runs from the left edge to the first lifeline, gap `k`
/// from lifeline `k-1` to lifeline `k`, and the last gap from the last lifeline to the right end.
/// Each gap has a floor (head boxes, bars, a label wrapped as narrow as allowed) and a natural size
/// (every label on one line). Labels sit in the gap next to their arrow's tail, on the rows above
/// the arrow, so a gap's size decides how its labels wrap.
///
/// Fitting follows criterion 2 of `../shared/DIAGRAMS.md` (beside the repository): first the comfortable padding around labels is
/// dropped (shrink gaps), then the widest gaps are capped at one common size until the total
/// fits, and their labels wrap (at spaces and after `(`, `,`, `.`, then between the words of an
/// identifier, then anywhere, as far as ``Breaks`` allows, with `…` past the line limit). Nested
/// frames give their border columns up to the labels before a word is broken. If even the
/// floors do not fit, the layout reports it.
struct TextLayout {
    struct ColumnGeometry {
        /// How far bars reach right of the lifeline (0 for none).
        let rightReach: Int
        /// How far bars reach left of the lifeline (1 when the column ever has a bar).
        let leftReach: Int
        /// The head box's extent left and right of the lifeline.
        let boxLeft: Int
        let boxRight: Int
        let name: String
    }

    /// Which gap a step's label sits in and how it is placed there.
    enum Placement {
        /// Above an arrow, centred in the gap (or left-aligned in the edge gap).
        case arrow(gap: Int)
        /// Right of a self-message loop.
        case loop(column: Int)
        /// A note box right of the lifeline.
        case note(column: Int)
        /// A frame's edge across the whole drawing, its label (if any) in the tab at the left,
        /// in the gap before the first lifeline.
        case frame(level: Int)
    }

    let columns: [ColumnGeometry]
    let frameDepth: Int
    /// The columns frame borders take at the left (the innermost followed by a blank) and at
    /// the right (preceded by one): one per level of nesting, or, when the page is too narrow
    /// for that, one for all — a frame nested deeper then shares the innermost border, its
    /// rules joining it as tees (`├─ opt [terms required] ──┤`).
    private(set) var frameColumns = 0
    /// The columns right of the last gap kept for frame borders.
    var rightInset: Int { frameColumns > 0 ? frameColumns + 1 : 0 }

    /// The column of the left border of a frame at nesting `level` (0 = outermost); the right
    /// border mirrors it.
    func frameBorder(level: Int) -> Int { min(level, max(frameColumns - 1, 0)) }
    /// The first column inside `level` frames: where a divider drawn inside them starts.
    func inside(level: Int) -> Int { min(level, frameColumns) }
    /// Whether a frame at `level` has no border column of its own (``frameColumns``).
    func sharesBorder(level: Int) -> Bool { level >= frameColumns }

    /// Where the rule of a frame's edge or a divider (a step placed as ``Placement/frame(level:)``)
    /// starts.
    func ruleStart(_ action: DiagramModel.Action, level: Int) -> Int {
        if case .divider = action { return inside(level: level) }
        return frameBorder(level: level)
    }
    /// The lifeline column of each participant.
    private(set) var x: [Int] = []
    private(set) var width = 0
    /// Each step's label lines (note lines for notes).
    private(set) var lines: [[String]] = []
    private(set) var placements: [Placement] = []

    private static let padding = 1
    /// The first column of a frame tab's text on a rule starting at `ruleStart`: the border,
    /// `─` and a blank before it.
    static func frameTextStart(ruleStart: Int) -> Int { ruleStart + 3 }

    /// A frame tab's text: its keyword, then its label in brackets, as UML writes a guard.
    static func tab(_ keyword: String, _ label: String) -> String {
        let text = LabelWrapper.sanitize(label)
        return text.isEmpty ? keyword : "\(keyword) [\(text)]"
    }
    /// Notes ask for this many text columns when their gap has room, and take the gap's whole
    /// free width once it is known.
    private static let noteNaturalWidth = 16
    /// Notes right of the last lifeline may widen the drawing up to this many text columns.
    private static let noteTailWidth = 30
    /// However much room there is, a note's lines stay this short, to be read at a glance.
    private static let noteWidestText = 44

    /// Where fitting may break a label inside a token.
    enum Breaks: Int, Comparable, CaseIterable {
        /// Nowhere: only at spaces and after `(`, `,`, `.`.
        case soft
        /// Also between the words of an identifier (`verification` / `Request`, `on` /
        /// `Finish(`, after `_`, `-`, `/`, `:`), never inside a word (`laun` / `ch(`).
        case words
        /// Anywhere, down to one column.
        case any

        static func < (lhs: Breaks, rhs: Breaks) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// - Parameter breaks: Where labels may be broken inside a token to fit; a drawing that
    ///   needs more throws `TraceError/diagramTooNarrow(required:available:)` with the width
    ///   it needs when broken only there.
    init(model: DiagramModel, maxWidth: Int, maxLabelLines: Int, breaks: Breaks = .any) throws(TraceError) {
        columns = model.columns.map { column in
            let boxWidth = column.participant.name.displayWidth + 2
            let boxLeft = (boxWidth - 1) / 2
            return ColumnGeometry(
                rightReach: column.maxDepth, leftReach: column.maxDepth > 0 ? 1 : 0,
                boxLeft: boxLeft, boxRight: boxWidth - 1 - boxLeft, name: column.participant.name)
        }
        frameDepth = model.frameDepth
        guard !columns.isEmpty else { return }

        let texts = model.steps.map { step -> [String] in
            switch step.action {
            case .message, .create, .launch, .finish, .divider:
                return [LabelWrapper.sanitize(model.label(of: step))]
            case .note:
                return LabelWrapper.paragraphs(model.label(of: step))
            case .frameOpen(let kind, _, _):
                return [Self.tab(kind.rawValue, model.label(of: step))]
            case .frameBranch(let kind, _):
                return [Self.tab(kind == .par ? "and" : "else", model.label(of: step))]
            case .frameClose:
                return []
            }
        }
        placements = model.steps.map { Self.placement(of: $0) }
        // Labels are measured once, for every fitting pass below.
        let measured = texts.indices.map { index -> MeasuredLabel? in
            if case .note = placements[index] { nil } else { MeasuredLabel(texts[index].first ?? "") }
        }

        // A border column per frame level first; one for all when that does not fit without
        // breaking a word: a narrow page gives the labels the columns of the frames' borders.
        var fit: Fit
        var shrunk: Bool
        frameColumns = frameDepth
        while true {
            let breaks = frameColumns > 1 ? min(breaks, .words) : breaks
            fit = Fit(
                layout: self, model: model, texts: texts, measured: measured, padding: Self.padding,
                maxLabelLines: maxLabelLines)
            shrunk = fit.total > maxWidth
            guard shrunk else { break }
            fit.dropPadding()
            // Notes are prose, so a word broken inside a note costs less than a broken label.
            fit.shrink(to: maxWidth, hardNotes: false, labels: .soft)
            fit.shrink(to: maxWidth, hardNotes: true, labels: .soft)
            if breaks >= .words { fit.shrink(to: maxWidth, hardNotes: true, labels: .words) }
            if breaks >= .any { fit.shrink(to: maxWidth, hardNotes: true, labels: .any) }
            if fit.total <= maxWidth { break }
            guard frameColumns > 1 else {
                throw .diagramTooNarrow(required: fit.floorTotal(labels: breaks), available: maxWidth)
            }
            frameColumns = 1
        }
        if shrunk { fit.wrapLabels() }

        var position = 0
        x = fit.sizes.dropLast().map { size in
            position += size
            return position
        }
        width = position + fit.sizes[columns.count] + 1 + rightInset
        // A divider names a session: its rule widens the drawing, up to the page, to say it whole.
        for (step, placement) in placements.enumerated() {
            guard case .frame(let level) = placement, case .divider = model.steps[step].action,
                let text = texts[step].first
            else { continue }
            width = max(width, min(maxWidth, text.displayWidth + 2 * inside(level: level) + 6))
        }
        lines = fit.lines

        // A frame's tab takes its rule, between the borders; a reason too long for it ends in `…`.
        for (step, placement) in placements.enumerated() {
            guard case .frame(let level) = placement, let text = texts[step].first else { continue }
            let available = width - 2 * ruleStart(model.steps[step].action, level: level) - 6
            lines[step] = [
                text.displayWidth <= available ? text : LabelWrapper.ellipsized(text, width: max(available, 1))
            ]
        }

        // Notes take the free width right of their lifeline, now that it is known: over idle
        // lifelines up to the first open bar, so a note of a sentence is not squeezed into a
        // column between two neighbours.
        for slot in fit.slots where slot.isNote {
            guard case .note(let column) = placements[slot.step] else { continue }
            let available = noteTextWidth(column: column, limit: model.steps[slot.step].noteLimit)
            lines[slot.step] = texts[slot.step].flatMap {
                LabelWrapper.wrap($0, width: min(available, Self.noteWidestText))
            }
        }
    }

    /// The first column a note box may use, right of a column's bars.
    func noteStart(column: Int) -> Int { x[column] + columns[column].rightReach + 2 }

    /// The widest note text that fits right of a column, stopping short of the bar of column
    /// `limit` (or of the right frame borders when `limit` is `nil`).
    func noteTextWidth(column: Int, limit: Int?) -> Int {
        let end: Int
        if let limit {
            end = x[limit] - columns[limit].leftReach - 2
        } else {
            end = width - 1 - rightInset
        }
        return max(end - noteStart(column: column) + 1 - 4, 1)
    }

    /// What an arrow step draws, for the text and SVG painters alike: its style, the column whose
    /// head box it creates, and the first column of each label line. Labels are centred in the
    /// gap next to the arrow's tail (left-aligned in the edge gap); a step from a lifeline to
    /// itself that is no message (an operation launching itself) is placed as a loop, but drawn
    /// as an arrow with its label left of the lifeline.
    func arrow(_ step: DiagramModel.Step, placement: Placement, lines: [String]) -> (
        style: MessageStyle, created: Int?, labelStarts: [Int]
    ) {
        var created: Int?
        var style = MessageStyle.call
        switch step.action {
        case .message(_, _, let messageStyle): style = messageStyle
        case .create(_, let column): created = column
        case .finish: style = .reply
        case .launch, .note, .frameOpen, .frameBranch, .frameClose, .divider: break
        }
        var gap = 0
        if case .arrow(let arrowGap) = placement { gap = arrowGap }
        if case .loop(let column) = placement { gap = column }
        let bounds = labelBounds(gap: gap, createdColumn: created)
        let starts = lines.map { line in
            gap == 0 ? bounds.start : bounds.start + (bounds.end - bounds.start + 1 - line.displayWidth) / 2
        }
        return (style, created, starts)
    }

    /// The columns a label over an arrow may use in a gap, both ends inclusive.
    private func labelBounds(gap: Int, createdColumn: Int?) -> (start: Int, end: Int) {
        let reach = reaches(gap: gap, created: createdColumn)
        // A label in the edge gap starts past the frame borders and a blank.
        return (gap == 0 ? 1 + frameColumns : x[gap - 1] + reach.left + 2, x[gap] - reach.right - 2)
    }

    /// How far into arrow gap `gap` its lifelines reach, with their bars or the head box of the
    /// service `created`: the left one (none in gap 0) and the right one.
    private func reaches(gap: Int, created: Int?) -> (left: Int, right: Int) {
        let right = columns[gap]
        let rightReach = created == gap ? max(right.leftReach, right.boxLeft) : right.leftReach
        guard gap > 0 else { return (0, rightReach) }
        let left = columns[gap - 1]
        return (created == gap - 1 ? max(left.rightReach, left.boxRight) : left.rightReach, rightReach)
    }

    /// A label or note that lives in a gap.
    private struct Slot {
        let step: Int
        let gap: Int
        /// Columns the gap needs besides the text: reaches of bars and boxes, margins, loop.
        let fixed: Int
        /// The comfortable padding around the text, on top of `fixed`, until fitting drops it.
        let padding: Int
        /// The text's natural width (a note's capped at what it asks for).
        let natural: Int
        /// The widest piece that cannot be wrapped without a hard break.
        let longestPiece: Int
        /// The widest word of an identifier in it (`verification` of `verificationRequest`):
        /// what cannot be broken at the words of an identifier.
        let longestWord: Int
        /// The label measured for wrapping; `nil` for a note, which wraps for real.
        let label: MeasuredLabel?
        let isNote: Bool
        /// The width the text is currently wrapped to.
        var width: Int
        /// The columns the slot takes in its gap now.
        var extent: Int { fixed + width }
    }

    /// The gap sizes and wrapped labels while fitting a width.
    private struct Fit {
        var slots: [Slot] = []
        /// The positions in `slots` of each gap's slots, in step order.
        var slotsInGap: [[Int]]
        var structural: [Int]
        var sizes: [Int]
        var lines: [[String]]
        /// The width each label wraps to, once fitting narrowed it.
        var wrapWidths: [Int?]
        let texts: [[String]]
        let maxLabelLines: Int

        /// The columns outside the gaps: the last lifeline's own and the right frame borders.
        let outside: Int
        var total: Int { sizes.reduce(0, +) + outside }

        /// Wraps every narrowed label for real, once, at the width fitting chose for it.
        mutating func wrapLabels() {
            for (step, width) in wrapWidths.enumerated() {
                guard let width else { continue }
                lines[step] = LabelWrapper.wrap(texts[step].first ?? "", width: width, maxLines: maxLabelLines)
            }
        }

        /// The narrowest the drawing can get with labels broken only as `labels` allows (notes
        /// anywhere): with `.any`, every text one column wide.
        func floorTotal(labels: Breaks) -> Int { floors(hardNotes: true, labels: labels).reduce(0, +) + outside }

        init(
            layout: TextLayout, model: DiagramModel, texts: [[String]], measured: [MeasuredLabel?], padding: Int,
            maxLabelLines: Int
        ) {
            let columns = layout.columns
            let count = columns.count
            self.texts = texts
            self.maxLabelLines = maxLabelLines
            let frameDepth = layout.frameColumns
            outside = 1 + layout.rightInset
            lines = texts
            wrapWidths = Array(repeating: nil, count: texts.count)

            // Head boxes one blank column apart; bars with room for an arrow between them.
            structural = Array(repeating: 0, count: count + 1)
            structural[0] = max(columns[0].boxLeft, columns[0].leftReach) + (frameDepth > 0 ? frameDepth + 1 : 0)
            for gap in 1..<count {
                let left = columns[gap - 1]
                let right = columns[gap]
                structural[gap] = max(
                    max(left.boxRight, left.rightReach) + max(right.boxLeft, right.leftReach) + 2,
                    left.rightReach + right.leftReach + 4)
            }
            structural[count] = max(columns[count - 1].boxRight, columns[count - 1].rightReach)

            slotsInGap = Array(repeating: [], count: count + 1)
            for (index, step) in model.steps.enumerated() {
                let text = texts[index]
                let label = measured[index]
                let natural = label?.natural ?? text.map(\.displayWidth).max() ?? 0
                let longest = label?.longest ?? text.map { MeasuredLabel($0).longest }.max() ?? 0
                let longestWord = label?.longestWord ?? longest
                var gap = 0
                var fixed = 0
                var slotPadding = 0
                var isNote = false
                switch layout.placements[index] {
                case .arrow(let arrowGap):
                    gap = arrowGap
                    var created: Int?
                    if case .create(_, let column) = step.action { created = column }
                    let reach = layout.reaches(gap: gap, created: created)
                    fixed = gap == 0 ? reach.right + 2 + frameDepth : reach.left + reach.right + 3
                    slotPadding = gap == 0 ? padding : 2 * padding
                case .loop(let column), .note(let column):
                    gap = column + 1
                    if case .note = layout.placements[index] { isNote = true }
                    let reach = columns[column].rightReach
                    fixed = gap == count ? reach + 5 : reach + 7 + columns[gap].leftReach
                    slotPadding = gap == count || isNote ? 0 : padding
                case .frame:
                    // A frame's tab lies on its own rule, across the lifelines: it takes no gap.
                    continue
                }
                let isTail = gap == count
                let asked =
                    isNote ? min(natural, isTail ? TextLayout.noteTailWidth : TextLayout.noteNaturalWidth) : natural
                if isNote { lines[index] = text.flatMap { LabelWrapper.wrap($0, width: asked) } }
                slotsInGap[gap].append(slots.count)
                slots.append(
                    Slot(
                        step: index, gap: gap, fixed: fixed, padding: slotPadding, natural: asked,
                        longestPiece: longest, longestWord: longestWord, label: isNote ? nil : label, isNote: isNote,
                        width: asked))
            }
            sizes = structural
            for slot in slots { sizes[slot.gap] = max(sizes[slot.gap], slot.extent + slot.padding) }
        }

        /// The first step of fitting: the gaps without the comfortable padding.
        mutating func dropPadding() {
            sizes = structural
            for slot in slots { sizes[slot.gap] = max(sizes[slot.gap], slot.extent) }
        }

        /// The smallest each gap may get: texts wrapped only at break opportunities (soft), also
        /// between the words of an identifier, or down to one column (hard).
        func floors(hardNotes: Bool, labels: Breaks) -> [Int] {
            var result = structural
            for slot in slots {
                let narrowest: Int
                switch slot.isNote ? (hardNotes ? .any : .soft) : labels {
                case .soft: narrowest = min(slot.natural, slot.longestPiece)
                case .words: narrowest = min(slot.natural, slot.longestWord)
                case .any: narrowest = min(slot.natural, 1)
                }
                result[slot.gap] = max(result[slot.gap], slot.fixed + narrowest)
            }
            return result
        }

        /// How badly narrowing a gap by one column would break its labels, judged on the wrapped
        /// result: nothing for breaks at spaces and punctuation, about 1 for each break inside a
        /// word (less in a long token than in a short word), 2 for a line left holding only
        /// punctuation.
        func harm(shrinking gap: Int) -> Double {
            let target = sizes[gap] - 1
            var total = 0.0
            for index in slotsInGap[gap] where slots[index].extent > target {
                guard let label = slots[index].label else { continue }
                total += label.harm(max(target - slots[index].fixed, 1))
            }
            return total
        }

        /// Narrows the widest shrinkable gap by one column at a time, re-wrapping its texts, until
        /// the drawing fits or nothing more can shrink this way. Narrowing the widest first wraps
        /// the longest labels first and leaves short ones alone; when tokens must be broken, the
        /// gap whose break does the least harm goes first.
        mutating func shrink(to maxWidth: Int, hardNotes: Bool, labels: Breaks) {
            let hardLabels = labels > .soft
            let floor = floors(hardNotes: hardNotes, labels: labels)
            while total > maxWidth {
                var widest = -1
                var widestScore = 0.0
                for gap in sizes.indices where sizes[gap] > floor[gap] {
                    let score = hardLabels ? harm(shrinking: gap) : 0
                    if widest < 0 || score < widestScore || (score == widestScore && sizes[gap] > sizes[widest]) {
                        widest = gap
                        widestScore = score
                    }
                }
                guard widest >= 0 else { return }
                let target = sizes[widest] - 1
                var size = structural[widest]
                for index in slotsInGap[widest] {
                    if slots[index].extent > target {
                        let allowed = max(target - slots[index].fixed, 1)
                        let step = slots[index].step
                        if let label = slots[index].label {
                            slots[index].width = label.wrappedWidth(allowed)
                            wrapWidths[step] = allowed
                        } else {
                            lines[step] = texts[step].flatMap { LabelWrapper.wrap($0, width: allowed) }
                            slots[index].width = lines[step].map(\.displayWidth).max() ?? 0
                        }
                    }
                    size = max(size, slots[index].extent)
                }
                sizes[widest] = size
            }
        }
    }

    private static func placement(of step: DiagramModel.Step) -> Placement {
        switch step.action {
        case .note(let column):
            return .note(column: column)
        case .frameOpen(_, let level, _), .frameBranch(_, let level), .frameClose(let level), .divider(let level):
            return .frame(level: level)
        default:
            break
        }
        let sender = step.sender
        let receiver = step.receiver
        if sender == receiver, let column = sender.column { return .loop(column: column) }
        switch (sender, receiver) {
        case (.edge, _):
            return .arrow(gap: 0)
        case (.column(let from), .edge):
            return .arrow(gap: from)
        case (.column(let from), .column(let to)):
            return .arrow(gap: from < to ? from + 1 : from)
        }
    }
}
