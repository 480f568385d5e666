import AuthFlow
import AuthFlowURLSession
import Foundation
import HTTPTestSupport
import Operations
import OperationsTesting
import Testing

/// Answers no well-behaved server gives, over a real socket on 127.0.0.1 through
/// `URLSessionTransport` and `HTTPAuthAPI`: each ends in an `AuthError` that says in plain words
/// what was wrong, not a network error number or a JSON syntax error.
struct BadResponseLoopbackTests {
    /// The phone answer the simulator gives, 61 bytes.
    private static let phoneAnswer = #"{"codeLength":6,"phoneToken":"sim1.token","termsRequired":true}"#

    private func started(_ start: () throws -> RecordingServer) throws -> RecordingServer {
        do {
            return try start()
        } catch {
            try Test.cancel("no HTTP server on 127.0.0.1: \(error)")
        }
    }

    /// A server answering every request with the phone answer's JSON under `contentType`.
    private func servingPhoneAnswer(as contentType: String) throws -> RecordingServer {
        try started {
            try RecordingServer { _ in
                HTTPResponse(status: 200, headers: ["Content-Type": contentType], body: Data(Self.phoneAnswer.utf8))
            }
        }
    }

    private func api(_ server: RecordingServer) -> HTTPAuthAPI {
        HTTPAuthAPI(transport: URLSessionTransport(baseURL: server.baseURL), timeout: TestTimeout.standard)
    }

    /// A head promising the whole answer, then its first `sent` bytes, then the connection closes.
    private static func cutOff(after sent: Int, status: String = "200 OK") -> [UInt8] {
        let body = Array(phoneAnswer.utf8)
        let head =
            "HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n"
            + "Connection: close\r\n\r\n"
        return Array(head.utf8) + body.prefix(sent)
    }

    @Test func aBodyCutOffMidwaySaysHowMuchArrived() async throws {
        let expected = Self.phoneAnswer.utf8.count
        let server = try started { try RecordingServer(rawHandler: { _ in Self.cutOff(after: 12) }) }
        defer { server.stop() }

        let result = try await api(server).submitPhone(Fixtures.phone)

        #expect(result == .failure(.truncatedResponse(received: 12, expected: expected)))
        #expect(
            result.failure?.description
                == "The server's answer was cut off: the body ended after 12 of \(expected) bytes. Try again.")
        #expect(result.failure?.outcomeIsUncertain == true, "the POST reached the server, which may have acted")
        #expect(result.failure?.isTransient == true)
        #expect(server.requests.count == 1)
    }

    /// An error answer cut off is read by its status: a refusal, never a lost answer to repeat.
    @Test func anErrorAnswerCutOffMidwayIsReadByItsStatus() async throws {
        let server = try started {
            try RecordingServer(rawHandler: { _ in Self.cutOff(after: 20, status: "401 Unauthorized") })
        }
        defer { server.stop() }

        let result = try await api(server).submitPhone(Fixtures.phone)

        #expect(result == .failure(.unauthorized))
        #expect(result.failure?.isTransient == false)
    }

    @Test func aRedirectToItselfIsReportedOnceNotFollowedRoundAndRound() async throws {
        let server = try started {
            try RecordingServer { request in HTTPResponse(status: 302, headers: ["Location": request.path]) }
        }
        defer { server.stop() }

        // A GET: followed, a 302 to itself would loop until the client gave up.
        let result = try await api(server).fetchTerms(phoneToken: PhoneToken("sim1.token"))

        #expect(result == .failure(.unexpectedStatus(302, code: nil)))
        #expect(
            result.failure?.description
                == "The server tried to redirect the request (status 302); this app does not follow redirects.")
        #expect(server.requests.count == 1, "the redirect was not followed")
    }

    @Test func jsonUnderTextHTMLIsRefused() async throws {
        let server = try servingPhoneAnswer(as: "text/html; charset=utf-8")
        defer { server.stop() }

        let result = try await api(server).submitPhone(Fixtures.phone)

        #expect(result == .failure(.malformedResponse(reason: "a text/html body where JSON was expected")))
        #expect(
            result.failure?.description
                == "The server sent an answer this app does not understand (a text/html body where JSON was expected).")
        #expect(result.failure?.isTransient == false)
    }

    @Test func theSameAnswerUnderJSONIsAccepted() async throws {
        let server = try servingPhoneAnswer(as: "application/json; charset=utf-8")
        defer { server.stop() }

        let session = try await api(server).submitPhone(Fixtures.phone).get()

        #expect(session.phoneToken == PhoneToken("sim1.token"))
        #expect(session.codeLength == 6)
    }
}
