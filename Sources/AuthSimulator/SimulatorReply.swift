import AuthFlow
import Foundation

extension SimulatorToken.Rejection {
    var response: HTTPResponse {
        Reply.error(401, "unauthorized", message, headers: ["WWW-Authenticate": "Bearer"])
    }
}

/// Builds the simulator's responses: JSON bodies and the error envelope.
enum Reply {
    /// The error envelope's body (Docs/HTTP-API.md): callers give the optional fields, ``error``
    /// sets the code and message.
    struct Extra: Encodable {
        var code = ""
        var message = ""
        var attemptsLeft: Int?
        var retryAfter: Int?
        var currentVersion: String?
    }

    static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }

    static func error(
        _ status: Int, _ code: String, _ message: String, extra: Extra = Extra(), headers: HTTPHeaders = [:]
    ) -> HTTPResponse {
        var body = extra
        (body.code, body.message) = (code, message)
        var response = json(["error": body], status: status)
        for (name, value) in headers.fields { response.headers[name] = value }
        return response
    }

    static func invalidRequest(_ expected: String) -> HTTPResponse {
        error(400, "invalid_request", "The body must be a JSON object with \(expected).")
    }

    static func decode<T: Decodable>(_ type: T.Type, _ request: HTTPRequest) -> T? {
        try? JSONDecoder().decode(T.self, from: request.body)
    }
}
