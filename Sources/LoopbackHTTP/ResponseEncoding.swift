import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes ``HTTPServer/Response``s as HTTP/1.1 bytes for ``HTTPServer``: status line, the handler's
/// headers with the framing ones replaced by the server's own, `Content-Length`, `Date`,
/// `Connection: close`, then the body.
enum ResponseEncoding {
    /// Headers the server sets itself: a handler's values for them would contradict the bytes
    /// actually written.
    private static let framing: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "date", "upgrade",
    ]

    /// The bytes of a response.
    ///
    /// - Parameters:
    ///   - response: The response; a status outside 200...599 becomes `502`, because a handler
    ///     that invents statuses is broken and the client must not guess at its answer.
    ///   - includeBody: `false` for `HEAD`: the headers describe the body that is not sent.
    static func encode(_ response: HTTPServer.Response, includeBody: Bool) -> [UInt8] {
        guard (200...599).contains(response.status) else {
            return encode(
                error(502, code: "bad_gateway", message: "The backend gave an invalid answer."),
                includeBody: includeBody)
        }
        let bodiless = response.status == 204 || response.status == 304
        var head = "HTTP/1.1 \(response.status) \(reason(response.status))\r\n"
        // Lowercased like HTTP/2 sends them, so `Content-Type` and `content-type` are one field.
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name.lowercased()] = value }
        for name in headers.keys.sorted() where !framing.contains(name) {
            guard let value = headers[name], isSafe(name), isSafe(value) else { continue }
            head += "\(canonical(name)): \(value)\r\n"
        }
        if !bodiless, !response.body.isEmpty, headers["content-type"] == nil {
            head += "Content-Type: application/octet-stream\r\n"
        }
        if !bodiless { head += "Content-Length: \(response.body.count)\r\n" }
        head += "Date: \(httpDate(time(nil)))\r\nConnection: close\r\n\r\n"
        var bytes = Array(head.utf8)
        if includeBody && !bodiless { bytes += response.body }
        return bytes
    }

    /// The server's own error answer, in the contract's envelope (Docs/HTTP-API.md, Errors) so a
    /// client decodes it like any other.
    static func error(_ status: Int, code: String, message: String) -> HTTPServer.Response {
        struct Envelope: Encodable {
            struct Body: Encodable {
                let code: String
                let message: String
            }
            let error: Body
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Envelope(error: .init(code: code, message: message)))) ?? Data("{}".utf8)
        return HTTPServer.Response(status: status, headers: ["Content-Type": "application/json"], body: data)
    }

    /// The status of raw answer bytes (`HTTP/1.1 200 OK…`) for the log; 0 when they do not start
    /// with a status line.
    static func status(in bytes: [UInt8]) -> Int {
        let line = bytes.prefix(12)
        guard line.count == 12, line.starts(with: Array("HTTP/1.".utf8)),
            let status = Int(String(decoding: line.suffix(3), as: UTF8.self))
        else { return 0 }
        return status
    }

    /// The interim answer that tells a client waiting on `Expect: 100-continue` to send its body.
    static let continueInterim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// The reason phrase of a status (informative only; clients read the number).
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 422: "Unprocessable Content"
        case 423: "Locked"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }

    /// `content-type` → `Content-Type`: names are compared lowercased; the usual
    /// spelling is kinder to a person reading `curl -i`.
    private static func canonical(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false).map { $0.prefix(1).uppercased() + $0.dropFirst() }
            .joined(separator: "-")
    }

    /// No CR, LF or other control character: a header from the handler must not be able to
    /// end the head early and inject another response.
    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }

    /// An IMF-fixdate (RFC 9110), e.g. `Sun, 06 Nov 1994 08:49:37 GMT`, built from `gmtime_r` so
    /// no formatter is shared between threads.
    static func httpDate(_ seconds: time_t) -> String {
        var value = seconds
        var parts = tm()
        gmtime_r(&value, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
