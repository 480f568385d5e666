import Operations

/// The lines of one step's text in the layout: a label on one line, a wrapped label, a note's
/// paragraphs, or nothing.
///
/// Most labels fit on one line, and an array of one string is an allocation per step (10,000 a
/// render of 10,000 messages, freed again at its end); a single line is kept inline.
struct LabelLines: RandomAccessCollection, Equatable {
    private enum Storage: Equatable {
        case one(String)
        case many([String])
    }

    private let storage: Storage

    /// No lines (a frame's close).
    static let none = LabelLines([])

    /// One line.
    init(_ line: String) {
        storage = .one(line)
    }

    /// Any number of lines.
    init(_ lines: [String]) {
        storage = .many(lines)
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .one: 1
        case .many(let lines): lines.count
        }
    }

    subscript(position: Int) -> String {
        switch storage {
        case .one(let line):
            precondition(position == 0, "line \(position) of one")
            return line
        case .many(let lines):
            return lines[position]
        }
    }
}
