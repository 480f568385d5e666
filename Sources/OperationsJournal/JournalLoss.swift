/// How a journal is known to have lost lines: what `check` names and a resume refuses
/// (``JournalError/linesLost(_:_:)``), whatever else the journal says.
///
/// Each line of a journal says where it stands — its number in the file and the checksum of the
/// line before it — and a mark beside the journal records how far it had been synced to disk
/// (Docs/Architecture.md, "The journal format"). A line out of its place, or a journal that ends
/// before the line its mark names, lost lines that may have recorded a launch that acted: a run
/// resumed from what is left could act again, so it is not resumed. Only a torn last line past
/// the last sync is a crash's tail, read as before.
///
/// A lost tail whose mark was lost with it (a power loss before the mark reached the disk, a
/// copy without the mark) goes unseen; so do lines appended by a build that predates positions.
public enum JournalLoss: Sendable, Hashable, CustomStringConvertible {
    /// Lines `first` through `last` are missing from the middle of the journal: the line in
    /// place `first` says it is line `last + 1`. `after` describes the line before the gap.
    case missingLines(first: Int, last: Int, after: String)
    /// The line in place `line` says it is line `claims`, a later place, after lines that do
    /// not say where they stand (written by an older build, or damaged): `claims - line` lines
    /// before it are missing, which ones cannot be told.
    case missingBefore(line: Int, claims: Int)
    /// The line in place `line` says it is line `claims`: an earlier place when a line before it
    /// is repeated or one was added, a later one when lines are out of order (the line that
    /// belongs in place `line` comes after it).
    case outOfPlace(line: Int, claims: Int)
    /// The line in place `line` does not follow the line before it: it was written after
    /// another line, which was lost and replaced (by a line of another copy of the journal).
    case brokenChain(line: Int)
    /// Lines `first` through `last` were lost from the end of the journal: it had been synced
    /// up to line `last`. `after` describes the last line left (`the start` when none is).
    case lostTail(first: Int, last: Int, after: String)
    /// Line `line`, the last the mark says was synced, is another line than the one synced
    /// there: the journal was replaced or rewritten since.
    case replacedLine(line: Int)
    /// The mark beside the journal, named here, does not read, so whether lines were lost
    /// cannot be told. Removing it accepts the journal as it stands.
    case unreadableMark(String)

    /// The first line concerned; `nil` when the mark does not read.
    public var line: Int? {
        switch self {
        case .missingLines(let first, _, _), .lostTail(let first, _, _): first
        case .missingBefore(let line, _), .outOfPlace(let line, _), .brokenChain(let line), .replacedLine(let line):
            line
        case .unreadableMark: nil
        }
    }

    /// A sentence for people, naming the line and what was lost: logs, CLI messages, test
    /// failures.
    public var description: String {
        switch self {
        case .missingLines(let first, let last, let after):
            "\(Self.lines(first, last)) missing after line \(first - 1) (\(after)): the line in "
                + "\(first == last ? "its" : "their") place says it is line \(last + 1)"
        case .missingBefore(let line, let claims):
            "line \(line) says it is line \(claims): \(claims - line == 1 ? "a line" : "\(claims - line) lines") "
                + "before it \(claims - line == 1 ? "is" : "are") missing, among lines that do not say where they stand"
        case .outOfPlace(let line, let claims) where claims > line:
            "line \(line) says it is line \(claims): lines are out of order"
        case .outOfPlace(let line, let claims):
            "line \(line) says it is line \(claims): a line before it is repeated, or one was added"
        case .brokenChain(let line):
            "line \(line) does not follow line \(line - 1): the line it was written after was lost "
                + "and another stands in its place"
        case .lostTail(let first, let last, _) where first == 1:
            "\(Self.lines(first, last)) lost: it had been synced to disk up to line \(last), and not a line "
                + "of it is left"
        case .lostTail(let first, let last, let after):
            "\(Self.lines(first, last)) lost from its end after line \(first - 1) (\(after)): it had "
                + "been synced to disk up to line \(last)"
        case .replacedLine(let line):
            "line \(line) is not the line synced there: the journal was replaced or rewritten after "
                + "it was synced"
        case .unreadableMark(let name):
            "its sync mark \(name) does not read, so whether lines were lost cannot be told "
                + "(removing the mark accepts the journal as it stands)"
        }
    }

    /// `line 7 is` or `lines 7–9 are`.
    private static func lines(_ first: Int, _ last: Int) -> String {
        first == last ? "line \(first) is" : "lines \(first)–\(last) are"
    }
}
