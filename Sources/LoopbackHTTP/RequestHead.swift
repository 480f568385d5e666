import HTTPWire

/// A request's head as ``HTTPServer`` reads it: request line and header fields, checked against
/// RFC 9112 strictly enough that nothing ambiguous reaches the handler (two lengths, a folded
/// line, a name with a space before its colon are all refused: they are how requests get smuggled
/// past a proxy).
struct RequestHead {
    var method: String
    var target: String
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

    init(_ status: Int, _ code: String, _ message: String) {
        (self.status, self.code, self.message) = (status, code, message)
    }

    static let malformedRequestLine = RequestRejection(
        400, "bad_request", "The request line must be 'METHOD /path HTTP/1.1'.")
}

/// Parses request heads, in the syntax the client shares (`HTTPHeadSyntax`), never reading past
/// the head it was given.
enum RequestHeadParser {
    /// Parses a complete head (the bytes up to and including its blank line), accepting a
    /// `Content-Length` of at most `maxBodyBytes` and the `methods` given.
    static func parse(_ head: ArraySlice<UInt8>, maxBodyBytes: Int, methods: Set<String>) throws(RequestRejection)
        -> RequestHead
    {
        var lines = HTTPHeadSyntax.lines(of: head)
        guard !lines.isEmpty else { throw .malformedRequestLine }
        let (method, target, minor) = try requestLine(lines.removeFirst())
        let headers = try fields(lines)
        if minor >= 1 && headers["host"] == nil {
            throw RequestRejection(400, "bad_request", "An HTTP/1.1 request needs a Host header.")
        }
        guard methods.contains(method) else {
            let names = methods.sorted()
            throw RequestRejection(
                405, "method_not_allowed",
                "This server answers \(names.dropLast().joined(separator: ", ")) and \(names.last ?? "nothing") only.")
        }
        if let encoding = headers["transfer-encoding"] {
            let last = encoding.split(separator: ",").last.map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() }
            if last == "chunked" {
                throw RequestRejection(
                    411, "length_required", "Chunked bodies are not accepted; send the body with a Content-Length.")
            }
            throw RequestRejection(
                501, "not_implemented", "The Transfer-Encoding '\(HTTPHeadSyntax.clip(encoding))' is not supported.")
        }
        var length = 0
        if let text = headers["content-length"] {
            guard let value = HTTPHeadSyntax.decimal(text) else {
                throw RequestRejection(400, "bad_request", "The Content-Length header must be one decimal number.")
            }
            guard value <= maxBodyBytes else {
                throw RequestRejection(413, "payload_too_large", "The body may have at most \(maxBodyBytes) bytes.")
            }
            length = value
        }
        let expectsContinue = headers["expect"]?.lowercased() == "100-continue"
        return RequestHead(
            method: method, target: target, headers: headers, contentLength: length,
            expectsContinue: expectsContinue)
    }

    /// Parses a request line: `METHOD SP target SP HTTP/1.x`, single spaces, a token method and a
    /// target of visible ASCII in origin form (an absolute `http://host/path` is reduced to its path).
    ///
    /// - Throws: `400` for anything malformed, `505` for another major version of HTTP.
    static func requestLine(_ line: ArraySlice<UInt8>) throws(RequestRejection) -> (String, String, Int) {
        let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(HTTPHeadSyntax.isTokenByte) else {
            throw .malformedRequestLine
        }
        let version = Array(parts[2])
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)), version[6] == UInt8(ascii: "."),
            let major = HTTPHeadSyntax.digit(version[5]), let minor = HTTPHeadSyntax.digit(version[7])
        else { throw .malformedRequestLine }
        guard major == 1 else {
            throw RequestRejection(505, "http_version_not_supported", "This server speaks HTTP/1.1.")
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
            let (name, value) = try HTTPHeadSyntax.field(
                line,
                folded: RequestRejection(400, "bad_request", "Folded or empty header lines are not accepted."),
                unnamed: RequestRejection(400, "bad_request", "Each header line must be 'Name: value'."))
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                throw RequestRejection(400, "bad_request", "Header values may not hold control characters.")
            }
            let text = String(decoding: value, as: UTF8.self)
            if let existing = headers[name] {
                switch name {
                case "content-length" where existing != text, "host":
                    throw RequestRejection(400, "bad_request", "The \(name) header may appear only once.")
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
}
