/// Where a journal line says it stands: its number in the file (the header is 1) and the
/// checksum of the line before it, `,"seq":7,"prev":"0a1b2c3d"`, written last before the line's
/// own checksum (field names in `JournalFormat.Position`).
///
/// A per-line checksum tells a changed line, not a missing one: a line deleted from the middle
/// leaves every other line intact. With each line naming its place and its predecessor, a gap,
/// a repeated line or a line from another copy of the journal is seen where it is. The fields
/// sit at the end, before the checksum, so that the reader finds them without decoding the line
/// and a copy (``RerunCopy``) can number a line again without touching what it records.
struct LinePosition: Equatable {
    /// The line's number in the file; the header is 1.
    let sequence: Int
    /// The checksum of the line before it; `nil` on the header, and after a line that has no
    /// checksum or a damaged one.
    let previous: UInt32?

    private static let sequenceField = Array(",\"\(JournalFormat.Position.sequence)\":".utf8)
    private static let previousField = Array(",\"\(JournalFormat.Position.previous)\":\"".utf8)

    /// Appends the fields to a line's body (its bytes before the checksum).
    func append(to body: inout [UInt8]) {
        body += Self.sequenceField
        body += String(sequence).utf8
        if let previous {
            body += Self.previousField
            LineChecksum.appendHex(previous, to: &body)
            body.append(UInt8(ascii: "\""))
        }
    }

    /// The position a line's body ends with, and where in the body it starts; `nil` for a body
    /// that ends otherwise (a line written before lines said where they stand).
    static func read(body: ArraySlice<UInt8>) -> (position: LinePosition, start: Int)? {
        var end = body.endIndex
        var previous: UInt32?
        // `,"prev":"` + 8 digits + `"`
        let previousLength = previousField.count + 9
        if body.count > previousLength, body[end - 1] == UInt8(ascii: "\""),
            body[(end - previousLength)..<(end - 9)].elementsEqual(previousField)
        {
            guard let value = LineChecksum.value(hex: body[(end - 9)..<(end - 1)]) else { return nil }
            previous = value
            end -= previousLength
        }
        var digitsStart = end
        while digitsStart > body.startIndex, end - digitsStart < 19,
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(body[digitsStart - 1])
        {
            digitsStart -= 1
        }
        let fieldStart = digitsStart - sequenceField.count
        guard digitsStart < end, fieldStart >= body.startIndex,
            body[fieldStart..<digitsStart].elementsEqual(sequenceField),
            let sequence = Int(String(decoding: body[digitsStart..<end], as: UTF8.self))
        else { return nil }
        return (LinePosition(sequence: sequence, previous: previous), fieldStart)
    }

    /// `line` (without its newline) standing at `position`: its old position, if any, replaced,
    /// and its checksum made again.
    ///
    /// - Returns: The line with its newline, and its checksum.
    static func place(_ line: ArraySlice<UInt8>, at position: LinePosition) -> (bytes: [UInt8], sum: UInt32) {
        // The fields before the checksum, or before the closing brace of a line without one.
        var body = LineChecksum.split(line)?.body ?? line.dropLast()
        if let (_, start) = read(body: body) { body = body[..<start] }
        var bytes = Array(body)
        position.append(to: &bytes)
        let sum = LineChecksum.adler32(bytes)
        return (bytes + LineChecksum.suffix(sum: sum), sum)
    }
}
