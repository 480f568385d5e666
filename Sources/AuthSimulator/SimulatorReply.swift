import AuthFlow
import Foundation

extension SimulatorToken.Rejection {
    var response: HTTPResponse {
        Reply.error(401, "unauthorized", message, headers: ["WWW-Authenticate": "Bearer"])
    }
}

/// Builds the simulator's responses: JSON bodies and the error envelope.
enum Reply {
    struct Extra: Encodable {
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
        struct Envelope: Encodable {
            struct Body: Encodable {
                let code: String
                let message: String
                let attemptsLeft: Int?
                let retryAfter: Int?
                let currentVersion: String?
            }
            let error: Body
        }
        var response = json(
            Envelope(
                error: .init(
                    code: code, message: message, attemptsLeft: extra.attemptsLeft, retryAfter: extra.retryAfter,
                    currentVersion: extra.currentVersion)),
            status: status)
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
