/// The syntax HTTP/1.1 requests and responses share (RFC 9112): where a head ends, its lines, a
/// header field, a length. One reading for AuthFlow's client and LoopbackHTTP's server, so the
/// two never frame a message differently. Works on bytes, so a non-UTF-8 byte cannot upset it.
package enum HTTPHeadSyntax {
    /// The index just past the blank line that ends a head, or `nil` when it has not arrived.
    ///
    /// - Parameters:
    ///   - bytes: What has arrived.
    ///   - start: Where an earlier search stopped (``resumePoint(after:)``), so a peer that sends
    ///     a byte at a time does not make the reader rescan the whole head each time.
    package static func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = max(start, 0)
        while index < bytes.count {
            if bytes[index] == lf {
                if index + 1 < bytes.count, bytes[index + 1] == lf { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == cr, bytes[index + 2] == lf { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    /// Where the next ``headEnd(in:from:)`` search may start after one that failed on `count`
    /// bytes: the last three bytes may begin the terminator.
    package static func resumePoint(after count: Int) -> Int { max(count - 3, 0) }

    /// The head's lines without their line ends (CRLF or a bare LF), its closing blank lines
    /// dropped.
    package static func lines(of head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines = head.split(separator: lf, omittingEmptySubsequences: false).map { line in
            line.last == cr ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Splits a header line into its name, lowercased, and its value without the spaces and
    /// tabs around it.
    ///
    /// - Throws: `folded` for an empty line or one starting with a space or tab (a folded line,
    ///   refused as RFC 9112 §5.2 allows); `unnamed` without a colon or with a name that is not a
    ///   token (a space before the colon is how requests get smuggled past a proxy).
    package static func field<Failure: Error>(_ line: ArraySlice<UInt8>, folded: Failure, unnamed: Failure)
        throws(Failure) -> (name: String, value: ArraySlice<UInt8>)
    {
        guard let first = line.first, first != 0x20, first != 0x09 else { throw folded }
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[..<colon].allSatisfy(isTokenByte)
        else { throw unnamed }
        let value = line[line.index(after: colon)...].drop { $0 == 0x20 || $0 == 0x09 }
        let end = value.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { value.index(after: $0) } ?? value.startIndex
        return (String(decoding: line[..<colon], as: UTF8.self).lowercased(), value[..<end])
    }

    /// A `Content-Length`: one to 18 ASCII digits (more could overflow); `nil` for anything else.
    package static func decimal(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// The value of an ASCII digit.
    package static func digit(_ byte: UInt8) -> Int? {
        (0x30...0x39).contains(byte) ? Int(byte - 0x30) : nil
    }

    /// The characters of an RFC 9110 token (methods and header names).
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), 0x30...0x39: true
        default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// A peer's text cut to 40 characters for a message.
    package static func clip(_ text: String) -> String {
        text.count <= 40 ? text : text.prefix(40) + "…"
    }

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")
}
