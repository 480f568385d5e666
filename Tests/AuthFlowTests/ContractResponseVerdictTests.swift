import AuthFlow
import Foundation
import Testing

/// The contract's judgement of responses (`HTTPAuthAPI.Hooks.validate`) on its own: which responses are answers, which are error answers, and
/// what it names as broken.
struct ContractResponseVerdictTests {
    private static let request = HTTPRequest(method: .post, path: "/v1/auth/phone")

    private func verdict(_ status: Int, _ headers: HTTPHeaders, body: String = "{}") -> Result<
        HTTPResponseVerdict, AuthError
    > {
        let response = HTTPResponse(status: status, headers: headers, body: Data(body.utf8))
        return Result { () throws(AuthError) in try HTTPAuthAPI.Hooks().validate(response, Self.request) }
    }

    @Test(arguments: [
        HTTPHeaders(["Content-Type": "application/json"]),
        ["Content-Type": "application/json; charset=utf-8"],
        ["Content-Type": "Application/JSON"],
        ["Content-Type": "application/problem+json"],
        [:],
        ["Content-Type": "application/json", "Content-Length": "2"],
        ["Content-Encoding": "gzip", "Content-Length": "40"],
    ])
    func aWholeJSONAnswerIsASuccess(headers: HTTPHeaders) {
        #expect(verdict(200, headers) == .success(.success))
    }

    @Test func anEmptySuccessNeedsNoMediaType() {
        #expect(verdict(204, ["Content-Type": "text/plain"], body: "") == .success(.success))
    }

    @Test(arguments: [301, 400, 401, 429, 500, 502])
    func anyOtherStatusIsAnErrorAnswerWhateverItsMediaType(status: Int) {
        #expect(
            verdict(status, ["Content-Type": "text/html"], body: "<h1>Bad Gateway</h1>") == .success(.errorResponse))
    }

    @Test func aSuccessThatIsNotJSONNamesWhatCameInstead() {
        #expect(
            verdict(200, ["Content-Type": "text/html"], body: "<html>")
                == .failure(.malformedResponse(reason: "a text/html body where JSON was expected")))
    }

    @Test func aSuccessShorterThanItsLengthIsTruncated() {
        #expect(
            verdict(200, ["Content-Type": "application/json", "Content-Length": "40"], body: #"{"phoneToke"#)
                == .failure(.truncatedResponse(received: 11, expected: 40)))
    }

    /// The status line of an error answer arrived whole: it is a refusal, read by its status,
    /// not a lost answer to send again.
    @Test(arguments: [401, 409, 500])
    func anErrorAnswerCutOffIsStillAnErrorAnswer(status: Int) {
        #expect(
            verdict(status, ["Content-Type": "application/json", "Content-Length": "40"], body: #"{"error":{"co"#)
                == .success(.errorResponse))
    }
}
