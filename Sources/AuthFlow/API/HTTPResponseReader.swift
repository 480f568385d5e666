import Foundation
import HTTPWire

/// Reads one HTTP/1.1 response from the bytes a connection delivers, as they arrive, for
/// ``PlainHTTPTransport``, in the syntax the server shares (`HTTPHeadSyntax`), and keeps to the
/// transport's limits, so a server cannot make the client hold an unbounded head or body.
///
/// It refuses what would be ambiguous (both `Content-Length` and `Transfer-Encoding`, a folded
/// header line, two different lengths) rather than guess: a client that guesses the framing
/// differently from the server reads the wrong answer.
struct HTTPResponseReader {
    /// Why the bytes are not a response the client can read; the reason is a few plain words.
    struct Unreadable: Error, Equatable {
        let reason: String
    }

    private enum Framing {
        case length(Int)
        case chunked
        case untilClose
    }

    private enum Phase {
        case head
        case body(Framing)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case done
    }

    private let maxHeadBytes: Int
    private let maxBodyBytes: Int
    private var phase = Phase.head
    private var buffer: [UInt8] = []
    /// Where the search for the end of a line or head resumes, so a server that sends a byte at a
    /// time does not make the reader rescan what it has.
    private var scanned = 0
    private var status = 0
    private var headers = HTTPHeaders()
    private var body: [UInt8] = []

    /// - Parameters:
    ///   - maxHeadBytes: The longest head, status line and fields together.
    ///   - maxBodyBytes: The longest body, decoded from chunks when chunked.
    init(maxHeadBytes: Int, maxBodyBytes: Int) {
        self.maxHeadBytes = maxHeadBytes
        self.maxBodyBytes = maxBodyBytes
    }

    /// Takes the next bytes from the connection.
    ///
    /// - Returns: The response once it is whole; `nil` while more is needed. Bytes after a
    ///   whole response are ignored (the connection is not reused).
    /// - Throws: ``Unreadable`` for anything that is not HTTP/1.1 or breaks a limit.
    mutating func consume(_ bytes: ArraySlice<UInt8>) throws(Unreadable) -> HTTPResponse? {
        buffer += bytes
        while true {
            switch phase {
            case .head:
                let end = HTTPHeadSyntax.headEnd(in: buffer, from: scanned)
                guard (end ?? buffer.count) <= maxHeadBytes else {
                    throw Unreadable(reason: "the answer's head was longer than \(Self.size(maxHeadBytes))")
                }
                guard let end else {
                    scanned = HTTPHeadSyntax.resumePoint(after: buffer.count)
                    return nil
                }
                let framing = try readHead(buffer[..<end])
                take(end)
                // An interim answer (100 Continue, 103 Early Hints) is followed by the real one.
                if (100...199).contains(status) {
                    headers = HTTPHeaders()
                    continue
                }
                guard let framing else { return finish() }
                phase = .body(framing)
            case .body(.length(let length)):
                guard buffer.count >= length else {
                    return nil
                }
                body = Array(buffer.prefix(length))
                return finish()
            case .body(.untilClose):
                body += buffer
                take(buffer.count)
                guard body.count <= maxBodyBytes else { throw tooLong() }
                return nil
            case .body(.chunked):
                phase = .chunkSize
            case .chunkSize:
                guard let line = try nextLine(limit: 1024, what: "a chunk's size line") else { return nil }
                let size = try Self.chunkSize(line)
                guard body.count + size <= maxBodyBytes else { throw tooLong() }
                phase = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let count = min(remaining, buffer.count)
                body += buffer.prefix(count)
                take(count)
                guard count == remaining else {
                    phase = .chunkData(remaining: remaining - count)
                    return nil
                }
                phase = .chunkDataEnd
            case .chunkDataEnd:
                // The line end after a chunk's data: CRLF, or a bare LF.
                if buffer.isEmpty || buffer == [Self.cr] { return nil }
                let end = buffer.starts(with: [Self.cr, Self.lf]) ? 2 : buffer.first == Self.lf ? 1 : 0
                guard end > 0 else { throw Unreadable(reason: "a chunk ran past its announced size") }
                take(end)
                phase = .chunkSize
            case .trailers:
                // Trailer fields are read past, within the head's limit, and not kept.
                guard let line = try nextLine(limit: maxHeadBytes, what: "the trailer") else { return nil }
                if line.isEmpty { return finish() }
            case .done:
                return nil
            }
        }
    }

    /// What the response amounts to when the connection closed before ``consume(_:)`` returned
    /// it whole: complete when its body ran to the close; a body shorter than its
    /// `Content-Length` as far as it came, so the validator can say how much was missing; `nil`
    /// without a whole head or for a chunked body cut off (nothing to measure by: the server may
    /// have acted on the request).
    mutating func endOfStream() -> HTTPResponse? {
        switch phase {
        case .body(.untilClose):
            return finish()
        case .body(.length):
            body = buffer
            return finish()
        case .head, .chunkSize, .chunkData, .chunkDataEnd, .trailers, .body(.chunked):
            return nil
        case .done:
            return response
        }
    }

    private var response: HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Data(body))
    }

    private mutating func finish() -> HTTPResponse {
        phase = .done
        return response
    }

    private mutating func take(_ count: Int) {
        buffer.removeFirst(count)
        scanned = 0
    }

    private func tooLong() -> Unreadable {
        Unreadable(reason: "the answer's body was longer than \(Self.size(maxBodyBytes))")
    }

    /// Reads the status line and the fields; the body's framing, or `nil` for a status that has
    /// no body (1xx, 204, 304).
    private mutating func readHead(_ head: ArraySlice<UInt8>) throws(Unreadable) -> Framing? {
        var lines = HTTPHeadSyntax.lines(of: head)
        guard !lines.isEmpty else { throw Unreadable(reason: "the answer had no status line") }
        status = try Self.statusCode(lines.removeFirst())
        if status == 101 { throw Unreadable(reason: "the server switched to another protocol") }
        var fields: [String: String] = [:]
        for line in lines {
            let (name, bytes) = try HTTPHeadSyntax.field(
                line, folded: Unreadable(reason: "the answer had a folded header line"),
                unnamed: Unreadable(reason: "the answer had a header line without a name"))
            let value = String(decoding: bytes, as: UTF8.self)
            // Repeated fields are one list (RFC 9110 §5.3).
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        headers = HTTPHeaders(fields)
        if (100...199).contains(status) || status == 204 || status == 304 { return nil }
        let length = fields["content-length"]
        if let coding = fields["transfer-encoding"] {
            guard length == nil else {
                throw Unreadable(reason: "the answer had both a Content-Length and a Transfer-Encoding")
            }
            guard coding.lowercased() == "chunked" else {
                throw Unreadable(
                    reason: "the answer's Transfer-Encoding '\(HTTPHeadSyntax.clip(coding))' is not supported")
            }
            return .chunked
        }
        guard let length else { return .untilClose }
        // "12, 12" is one length said twice; "12, 13" is two.
        let values = Set(length.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard values.count == 1, let text = values.first, let value = HTTPHeadSyntax.decimal(text) else {
            throw Unreadable(reason: "the answer's Content-Length was not one decimal number")
        }
        guard value <= maxBodyBytes else { throw tooLong() }
        return .length(value)
    }

    /// The next line of the buffer without its line end, taken off the buffer; `nil` until one
    /// has arrived.
    private mutating func nextLine(limit: Int, what: String) throws(Unreadable) -> ArraySlice<UInt8>? {
        guard let lf = buffer[scanned...].firstIndex(of: Self.lf) else {
            guard buffer.count <= limit else { throw Unreadable(reason: "\(what) was too long") }
            scanned = buffer.count
            return nil
        }
        var line = buffer[..<lf]
        if line.last == Self.cr { line = line.dropLast() }
        guard line.count <= limit else { throw Unreadable(reason: "\(what) was too long") }
        let copy = ArraySlice(Array(line))
        take(lf + 1)
        return copy
    }

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    /// `HTTP/1.x SP 3DIGIT [SP reason]`.
    private static func statusCode(_ line: ArraySlice<UInt8>) throws(Unreadable) -> Int {
        let bytes = Array(line)
        let malformed = Unreadable(reason: "the status line was not 'HTTP/1.1 <code> <reason>'")
        let isDigit = { (byte: UInt8) in HTTPHeadSyntax.digit(byte) != nil }
        guard bytes.count >= 12, bytes.starts(with: Array("HTTP/1.".utf8)), isDigit(bytes[7]), bytes[8] == 0x20,
            bytes[9...11].allSatisfy(isDigit), bytes.count == 12 || bytes[12] == 0x20
        else { throw malformed }
        let code = bytes[9...11].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        guard (100...599).contains(code) else { throw malformed }
        return code
    }

    /// A chunk's size in hexadecimal, extensions after `;` ignored.
    private static func chunkSize(_ line: ArraySlice<UInt8>) throws(Unreadable) -> Int {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 0x20 && $0 != 0x09 }
        guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
        else { throw Unreadable(reason: "a chunk's size was not a hexadecimal number") }
        return size
    }

    /// `64 KiB`, `4 MiB`, or bytes when not a whole number of either.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return bytes == 1 ? "1 byte" : "\(bytes) bytes"
    }
}
