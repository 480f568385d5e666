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
        (charset == .unicode ? Self.unicode : Self.ascii)[Int(rawValue)]
    }

    /// Each glyph's spelling, in the order of the cases (the table of ``DiagramCharset``).
    private static let unicode = "│─~┌┐└┘┬┴├┬┴╳═║╔╗╚╝><┼┤╌".map(String.init)
    private static let ascii = "|-~+++++++--X=|++++><++-".map(String.init)
}
