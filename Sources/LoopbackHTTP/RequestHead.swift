/// A request's head as ``HTTPServer`` reads it: request line and header fields, checked against
/// RFC 9112 strictly enough that nothing ambiguous reaches the handler (two lengths, a folded
/// line, a name with a space before its colon are all refused: they are how requests get smuggled
/// past a proxy).
struct RequestHead {
    /// The method as sent, e.g. `POST`.
    var method: String
    /// The origin-form target: path and query, e.g. `/v1/auth/phone`.
    var target: String
    /// The minor version of HTTP/1.x.
    var minorVersion: Int
    /// The fields, keyed by lowercased name.
    var headers: [String: String]
    /// The body's length from `Content-Length`; 0 without one.
    var contentLength: Int
    /// Whether the client waits for `100 Continue` before sending the body (curl does for bodies
    /// over 1 KiB).
    var expectsContinue: Bool
}

/// A request refused before it reaches the handler: the status and the error envelope's code
/// and message (Docs/HTTP-API.md: every non-2xx answer carries one).
struct RequestRejection: Error {
    let status: Int
    let code: String
    let message: String

    static let malformedRequestLine = RequestRejection(
        status: 400, code: "bad_request", message: "The request line must be 'METHOD /path HTTP/1.1'.")
}

/// Parses request heads. Works on bytes, so a non-UTF-8 byte can never make a `String` index
/// misbehave, and never reads past the head it was given.
enum RequestHeadParser {
    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    /// The index just past the blank line that ends the head, or `nil` when it has not arrived.
    ///
    /// - Parameters:
    ///   - bytes: What has arrived, leading blank lines already dropped.
    ///   - from: Where an earlier search stopped, so a client that sends a byte at a time does not
    ///     make the server rescan its whole head each time.
    static func headEnd(in bytes: [UInt8], from start: Int) -> Int? {
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
    static func resumePoint(after count: Int) -> Int { max(count - 3, 0) }

    /// Parses a complete head (the bytes up to and including its blank line).
    ///
    /// - Parameter maxBodyBytes: The largest `Content-Length` accepted.
    /// - Throws: The rejection to answer with.
    static func parse(_ head: ArraySlice<UInt8>, maxBodyBytes: Int) throws(RequestRejection) -> RequestHead {
        var lines = head.split(separator: lf, omittingEmptySubsequences: false).map { line in
            line.last == cr ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard !lines.isEmpty else { throw .malformedRequestLine }
        let (method, target, minor) = try requestLine(lines.removeFirst())
        let headers = try fields(lines)
        if minor >= 1 && headers["host"] == nil {
            throw RequestRejection(
                status: 400, code: "bad_request", message: "An HTTP/1.1 request needs a Host header.")
        }
        guard ["GET", "HEAD", "POST"].contains(method) else {
            throw RequestRejection(
                status: 501, code: "not_implemented", message: "This server answers GET, HEAD and POST only.")
        }
        if let encoding = headers["transfer-encoding"] {
            let last = encoding.split(separator: ",").last.map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() }
            if last == "chunked" {
                throw RequestRejection(
                    status: 411, code: "length_required",
                    message: "Chunked bodies are not accepted; send the body with a Content-Length.")
            }
            throw RequestRejection(
                status: 501, code: "not_implemented",
                message: "The Transfer-Encoding '\(clip(encoding))' is not supported.")
        }
        var length = 0
        if let text = headers["content-length"] {
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text)
            else {
                throw RequestRejection(
                    status: 400, code: "bad_request", message: "The Content-Length header must be one decimal number.")
            }
            guard value <= maxBodyBytes else {
                throw RequestRejection(
                    status: 413, code: "payload_too_large",
                    message: "The body may have at most \(maxBodyBytes) bytes.")
            }
            length = value
        }
        let expectsContinue = headers["expect"]?.lowercased() == "100-continue"
        return RequestHead(
            method: method, target: target, minorVersion: minor, headers: headers, contentLength: length,
            expectsContinue: expectsContinue)
    }

    /// Parses a request line: `METHOD SP target SP HTTP/1.x`, single spaces, a token method and a
    /// target of visible ASCII in origin form (an absolute `http://host/path` is reduced to its path).
    ///
    /// - Throws: `400` for anything malformed, `505` for another major version of HTTP.
    static func requestLine(_ line: ArraySlice<UInt8>) throws(RequestRejection) -> (String, String, Int) {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else { throw .malformedRequestLine }
        let version = Array(parts[2])
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == UInt8(ascii: "."),
            let major = digit(version[5]), let minor = digit(version[7])
        else { throw .malformedRequestLine }
        guard major == 1 else {
            throw RequestRejection(
                status: 505, code: "http_version_not_supported", message: "This server speaks HTTP/1.1.")
        }
        guard !parts[1].isEmpty, parts[1].allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw .malformedRequestLine
        }
        var target = String(decoding: parts[1], as: UTF8.self)
        for scheme in ["http://", "https://"] where target.lowercased().hasPrefix(scheme) {
            let authorityAndPath = target.dropFirst(scheme.count)
            target = authorityAndPath.firstIndex(of: "/").map { String(authorityAndPath[$0...]) } ?? "/"
        }
        guard target.hasPrefix("/") else { throw .malformedRequestLine }
        return (String(decoding: parts[0], as: UTF8.self), target, minor)
    }

    /// Parses header lines; duplicates are joined with `, ` as RFC 9110 allows, except the two
    /// whose duplicates make a request ambiguous.
    private static func fields(_ lines: [ArraySlice<UInt8>]) throws(RequestRejection) -> [String: String] {
        var headers: [String: String] = [:]
        for line in lines {
            guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t") else {
                throw RequestRejection(
                    status: 400, code: "bad_request", message: "Folded or empty header lines are not accepted.")
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line[..<colon].allSatisfy(isTokenByte)
            else {
                throw RequestRejection(
                    status: 400, code: "bad_request", message: "Each header line must be 'Name: value'.")
            }
            let value = line[line.index(after: colon)...].drop { $0 == 0x20 || $0 == 0x09 }
            let trimmed = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
            guard trimmed.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw RequestRejection(
                    status: 400, code: "bad_request", message: "Header values may not hold control characters.")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let text = String(decoding: trimmed, as: UTF8.self)
            if let existing = headers[name] {
                switch name {
                case "content-length" where existing != text, "host":
                    throw RequestRejection(
                        status: 400, code: "bad_request", message: "The \(name) header may appear only once.")
                case "content-length":
                    continue
                default:
                    headers[name] = existing + ", " + text
                }
            } else {
                headers[name] = text
            }
        }
        return headers
    }

    /// The characters of an RFC 9110 token (method and header names).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func digit(_ byte: UInt8) -> Int? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte - UInt8(ascii: "0")) : nil
    }

    private static func clip(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}
