import Operations

/// The characters a text diagram is drawn with.
///
/// Both charsets draw the same geometry: the same lines, every glyph in the same column. Text in
/// labels and notes is mapped column for column too (see ``ascii``).
///
/// | Element                | Unicode            | ASCII              |
/// |------------------------|--------------------|--------------------|
/// | lifeline               | `│`                | `|`                |
/// | call                   | `───────>`         | `------->`         |
/// | reply                  | `<─ ─ ─ ──`        | `<- - - --`        |
/// | async message/callback | `~~~~~~~>`         | `~~~~~~~>`         |
/// | launch (from the edge) | `───────>` at col 0| `------->` at col 0|
/// | onFinish (to the edge) | `<─ ─ ─ ──` to col 0| `<- - - --` to col 0|
/// | activation bar         | `┌┴┐` `│ │` `└┬┘`  | `+-+` `| |` `+-+`  |
/// | nested bar             | `├┐` `││` `├┘`     | `++` `||` `++`     |
/// | end of a context service | `╳`              | `X`                |
/// | note                   | `╔═╗` `║` `╚═╝`    | `+=+` `|` `+=+`    |
/// | frame (loop/alt/opt/group) | `┌─ loop [why] ─┼─┐` `│` `└─┼─┘` | `+- loop [why] -+-+` `|` `+-+-+` |
/// | frame branch (`else`)  | `├╌ else [why] ╌┼╌┤` | `+- else [why] -+-+` |
public enum DiagramCharset: Hashable, Sendable {
    /// Box-drawing characters (the default).
    case unicode
    /// Pure 7-bit ASCII. Non-ASCII text is mapped to ASCII of the same display width: `…` to `~`,
    /// `•` to `*`, typographic quotes and dashes to their ASCII forms, accented letters to their
    /// base letters, anything else to `?` per column.
    case ascii
}

/// The drawing glyphs, stored in the canvas as small codes and spelled per charset on output.
enum Glyph: UInt8, CaseIterable {
    case vertical, horizontal, wave
    case topLeft, topRight, bottomLeft, bottomRight
    case teeDown, teeUp, teeRight
    /// Where a bar meets its lifeline (`┬` `┴`); plain `-` in ASCII so a bar reads `+-+`.
    case barJoinDown, barJoinUp
    case cross
    case noteHorizontal, noteVertical, noteTopLeft, noteTopRight, noteBottomLeft, noteBottomRight
    case headRight, headLeft
    /// Frames: where a frame's edge crosses a lifeline or bar, the right end of a branch line,
    /// and a branch line's dashes.
    case crossing, teeLeft, frameDash

    func spelled(in charset: DiagramCharset) -> String {
        switch charset {
        case .unicode: return unicode
        case .ascii: return ascii
        }
    }

    private var unicode: String {
        switch self {
        case .vertical: return "│"
        case .horizontal: return "─"
        case .wave: return "~"
        case .topLeft: return "┌"
        case .topRight: return "┐"
        case .bottomLeft: return "└"
        case .bottomRight: return "┘"
        case .teeDown: return "┬"
        case .teeUp: return "┴"
        case .teeRight: return "├"
        case .barJoinDown: return "┬"
        case .barJoinUp: return "┴"
        case .cross: return "╳"
        case .noteHorizontal: return "═"
        case .noteVertical: return "║"
        case .noteTopLeft: return "╔"
        case .noteTopRight: return "╗"
        case .noteBottomLeft: return "╚"
        case .noteBottomRight: return "╝"
        case .headRight: return ">"
        case .headLeft: return "<"
        case .crossing: return "┼"
        case .teeLeft: return "┤"
        case .frameDash: return "╌"
        }
    }

    private var ascii: String {
        switch self {
        case .vertical, .noteVertical: return "|"
        case .horizontal, .barJoinDown, .barJoinUp: return "-"
        case .wave: return "~"
        case .topLeft, .topRight, .bottomLeft, .bottomRight, .teeDown, .teeUp, .teeRight: return "+"
        case .noteTopLeft, .noteTopRight, .noteBottomLeft, .noteBottomRight: return "+"
        case .cross: return "X"
        case .noteHorizontal: return "="
        case .headRight: return ">"
        case .headLeft: return "<"
        case .crossing, .teeLeft: return "+"
        case .frameDash: return "-"
        }
    }
}
