import AuthFlow
import Foundation
import HTTPTestSupport
import Operations
import OperationsTesting
import Testing

/// `PlainHTTPTransport` over a real socket on 127.0.0.1, against a ``ScriptedServer`` that
/// answers byte for byte what each test needs: a well-formed answer, a server that acts and
/// closes, and every kind of answer a hand-written parser must refuse.
///
/// Each transport's timeout runs on a `TestScheduler` nobody advances unless the test is about
/// the timeout, so an answer that arrives proves no timeout path was taken.
struct PlainHTTPTransportTests {
    private static let body = #"{"phone":"+79991234567"}"#
    private static let answer = #"{"codeLength":6,"phoneToken":"sim1.token","termsRequired":true}"#

    private func started(_ reply: @escaping @Sendable (ScriptedServer.Request, Int) -> ScriptedServer.Reply) throws
        -> ScriptedServer
    {
        do {
            return try ScriptedServer(reply: reply)
        } catch {
            try Test.cancel("no server on 127.0.0.1: \(error)")
        }
    }

    private func transport(
        _ server: ScriptedServer, scheduler: TestScheduler = TestScheduler(),
        limits: PlainHTTPTransport.Limits = PlainHTTPTransport.Limits()
    ) throws -> PlainHTTPTransport {
        try PlainHTTPTransport(baseURL: server.baseURL, limits: limits, scheduler: scheduler)
    }

    private static func post(key: String = "idk-1", timeout: Duration = .seconds(10)) -> HTTPRequest {
        HTTPRequest(
            method: .post, path: "/v1/auth/phone",
            headers: ["Content-Type": "application/json", "Idempotency-Key": key], body: Data(body.utf8),
            timeout: timeout)
    }

    private func send(_ request: HTTPRequest = post(), over transport: PlainHTTPTransport) async throws
        -> Result<HTTPResponse, TransportError>
    {
        try await awaitCompletion { done in transport.send(request, completion: done) }
    }

    // MARK: - One request per attempt

    @Test func theRequestGoesOutOnceWithItsBodyAndFramingFields() async throws {
        let server = try started { _, _ in
            .answer(status: 200, headers: [("Content-Type", "application/json")], body: Self.answer)
        }
        defer { server.stop() }

        let response = try await send(over: transport(server)).get()

        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/json")
        #expect(String(decoding: response.body, as: UTF8.self) == Self.answer)
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1)
        #expect(request.method == "POST" && request.target == "/v1/auth/phone")
        #expect(String(decoding: request.body, as: UTF8.self) == Self.body)
        #expect(request.headers["host"] == "127.0.0.1:\(server.port)")
        #expect(request.headers["content-length"] == "\(Self.body.utf8.count)")
        #expect(request.headers["connection"] == "close")
        #expect(request.headers["idempotency-key"] == "idk-1")
    }

    /// The defect QA found over URLSession: the server acts, closes without a word, and the
    /// platform's stack sends the POST again by itself, empty. Here the server would even keep
    /// its connections alive; the transport still writes the request once and says at once that
    /// the answer was lost.
    @Test func aServerThatActsAndClosesGetsOneRequestAndTheAnswerIsLostAtOnce() async throws {
        let server = try started { _, index in
            index == 0 ? .closeWithoutAnswer : .answer(status: 200, body: Self.answer, keepAlive: true)
        }
        defer { server.stop() }
        let scheduler = TestScheduler()
        let transport = try transport(server, scheduler: scheduler)

        let lost = try await send(over: transport)
        #expect(lost == .failure(.connectionLost), "reported as lost, never as a timeout")
        #expect(server.requests.count == 1, "one request, not sent again by the transport")
        #expect(server.wait { $0.connections == 1 }, "and one connection")

        // The caller's retry is the one repeat: the whole body under the same key.
        #expect(try await send(over: transport).get().status == 200)
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests.map { String(decoding: $0.body, as: UTF8.self) } == [Self.body, Self.body])
        #expect(requests.map { $0.headers["idempotency-key"] } == ["idk-1", "idk-1"])
        #expect(scheduler.requestedDelays == [.seconds(10), .seconds(10)], "each send's own deadline, never due")
    }

    /// Through the client: the lost answer is ``AuthError/connectionLost`` — uncertain and
    /// transient — with the client's 10 s timeout still pending on its scheduler.
    @Test func theClientReportsTheLostAnswerAsUncertainWithoutWaitingForItsTimeout() async throws {
        let server = try started { _, _ in .closeWithoutAnswer }
        defer { server.stop() }
        let scheduler = TestScheduler()
        let api = HTTPAuthAPI(transport: try transport(server), timeout: .seconds(10))

        let result = try await awaitCompletion { done in
            api.submitPhone(Fixtures.phone, call: AuthCall(scheduler: scheduler), completion: done)
        }

        #expect(result == .failure(.connectionLost))
        #expect(result.failure?.outcomeIsUncertain == true)
        #expect(result.failure?.isTransient == true)
        #expect(scheduler.requestedDelays == [.seconds(10)], "the timeout was scheduled and never reached")
        #expect(server.requests.count == 1)
    }

    // MARK: - Well-formed answers of every framing

    @Test func aChunkedAnswerIsDecoded() async throws {
        let chunked =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "10\r\n{\"codeLength\":6,\r\n5;ext=1\r\n\"a\":1\r\n1\r\n}\r\n0\r\nX-Trailer: t\r\n\r\n"
        let server = try started { _, _ in .raw(chunked) }
        defer { server.stop() }

        let response = try await send(over: transport(server)).get()

        #expect(String(decoding: response.body, as: UTF8.self) == #"{"codeLength":6,"a":1}"#)
    }

    @Test func anAnswerWithoutALengthRunsToTheClose() async throws {
        let server = try started { _, _ in .raw("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{}") }
        defer { server.stop() }

        let response = try await send(over: transport(server)).get()

        #expect(response.status == 200)
        #expect(response.body == Data("{}".utf8))
    }

    @Test func anInterimAnswerIsSkippedAndRepeatedFieldsAreOneList() async throws {
        let server = try started { _, _ in
            .raw("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 429 Too Many\r\nRetry-After: 29\r\nVary: a\r\nVary: b\r\n\r\n")
        }
        defer { server.stop() }

        let response = try await send(over: transport(server)).get()

        #expect(response.status == 429)
        #expect(response.headers["Retry-After"] == "29")
        #expect(response.headers["vary"] == "a, b")
    }

    // MARK: - Answers the parser refuses

    @Test(arguments: [
        ("ICY 200 OK\r\n\r\n", "the status line was not 'HTTP/1.1 <code> <reason>'"),
        ("HTTP/2 200\r\n\r\n", "the status line was not 'HTTP/1.1 <code> <reason>'"),
        ("HTTP/1.1 2000 OK\r\n\r\n", "the status line was not 'HTTP/1.1 <code> <reason>'"),
        ("HTTP/1.1 099 Low\r\n\r\n", "the status line was not 'HTTP/1.1 <code> <reason>'"),
        ("<html>hello</html>\r\n\r\n", "the status line was not 'HTTP/1.1 <code> <reason>'"),
        ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "the answer had a header line without a name"),
        ("HTTP/1.1 200 OK\r\nA: 1\r\n folded\r\n\r\n", "the answer had a folded header line"),
        (
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}",
            "the answer had both a Content-Length and a Transfer-Encoding"
        ),
        ("HTTP/1.1 200 OK\r\nContent-Length: 2, 3\r\n\r\n{}", "the answer's Content-Length was not one decimal number"),
        ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "the answer's Content-Length was not one decimal number"),
        (
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n",
            "the answer's Transfer-Encoding 'gzip' is not supported"
        ),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "a chunk's size was not a hexadecimal number"),
        (
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}}\r\n0\r\n\r\n",
            "a chunk ran past its announced size"
        ),
        ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n", "the server switched to another protocol"),
    ])
    func aMalformedAnswerIsRefusedWithItsReason(raw: String, reason: String) async throws {
        let server = try started { _, _ in .raw(raw) }
        defer { server.stop() }

        #expect(try await send(over: transport(server)) == .failure(.invalidResponse(reason: reason)))
    }

    @Test func anOversizedHeadIsRefusedAtItsLimit() async throws {
        let long = String(repeating: "a", count: 70 << 10)
        let server = try started { _, _ in .raw("HTTP/1.1 200 OK\r\nX-Long: \(long)\r\n\r\n{}") }
        defer { server.stop() }

        let result = try await send(over: transport(server))

        #expect(result == .failure(.invalidResponse(reason: "the answer's head was longer than 64 KiB")))
    }

    @Test func anAnnouncedBodyOverTheLimitIsRefusedBeforeItIsRead() async throws {
        // The head promises 2 MiB and nothing follows: refused on the head alone, never awaited.
        let server = try started { _, _ in
            ScriptedServer.Reply(bytes: Array("HTTP/1.1 200 OK\r\nContent-Length: 2097152\r\n\r\n".utf8), then: .hold)
        }
        defer { server.stop() }

        let result = try await send(over: transport(server))

        #expect(result == .failure(.invalidResponse(reason: "the answer's body was longer than 1 MiB")))
        #expect(server.wait { $0.closedByClient == 1 }, "the connection was closed")
    }

    @Test(arguments: ["chunked", "untilClose"])
    func aBodyOverTheLimitWithoutALengthIsRefused(framing: String) async throws {
        let body = String(repeating: "x", count: 300)
        let raw =
            framing == "chunked"
            ? "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n12c\r\n\(body)\r\n0\r\n\r\n"
            : "HTTP/1.1 200 OK\r\n\r\n\(body)"
        let server = try started { _, _ in .raw(raw) }
        defer { server.stop() }
        let limits = PlainHTTPTransport.Limits(maxBodyBytes: 256)

        let result = try await send(over: transport(server, limits: limits))

        #expect(result == .failure(.invalidResponse(reason: "the answer's body was longer than 256 bytes")))
    }

    // MARK: - Connections that end early

    @Test(arguments: [
        "", "HTTP/1.1 200 OK\r\nContent-Ty", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{\"a\"",
    ])
    func anAnswerCutOffBeforeItCanBeMeasuredIsALostConnection(raw: String) async throws {
        let server = try started { _, _ in .raw(raw) }
        defer { server.stop() }

        #expect(try await send(over: transport(server)) == .failure(.connectionLost))
        #expect(server.requests.count == 1)
    }

    /// A body cut off after a head with a length is delivered as it came, and the client's
    /// validator says how much arrived.
    @Test func aBodyCutOffMidwayIsMeasuredByTheClient() async throws {
        let raw =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(Self.answer.utf8.count)\r\n\r\n"
            + Self.answer.prefix(12)
        let server = try started { _, _ in .raw(raw) }
        defer { server.stop() }
        let api = HTTPAuthAPI(transport: try transport(server), timeout: .seconds(10))

        let result = try await awaitCompletion { done in
            api.submitPhone(Fixtures.phone, call: AuthCall(scheduler: TestScheduler()), completion: done)
        }

        #expect(result == .failure(.truncatedResponse(received: 12, expected: Self.answer.utf8.count)))
        #expect(result.failure?.outcomeIsUncertain == true)
    }

    // MARK: - Deadline and cancellation

    @Test(arguments: ["silent", "midBody"])
    func aSlowServerMeetsTheDeadlineOnTheSchedulerAndSeesTheClientLeave(stall: String) async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"codeLength\":"
        let server = try started { _, _ in
            stall == "silent" ? .stall : ScriptedServer.Reply(bytes: Array(head.utf8), then: .hold)
        }
        defer { server.stop() }
        let scheduler = TestScheduler()
        let transport = try transport(server, scheduler: scheduler)
        let result = Mailbox<Result<HTTPResponse, TransportError>>()
        transport.send(Self.post(timeout: .seconds(3))) { result.put($0) }

        #expect(await OwnThread.run { server.wait { $0.requests.count == 1 } })
        #expect(result.isEmpty, "nothing before the deadline")
        scheduler.advance(by: .seconds(3))

        #expect(try await OwnThread.run { try result.take() } == .failure(.timeout))
        #expect(await OwnThread.run { server.wait { $0.closedByClient == 1 } }, "the connection was closed")
    }

    @Test func cancellingClosesTheConnectionAtOnce() async throws {
        let server = try started { _, _ in .stall }
        defer { server.stop() }
        let token = CancellationToken()
        let result = Mailbox<Result<HTTPResponse, TransportError>>()
        try transport(server).send(Self.post(), cancellation: token) { result.put($0) }

        #expect(await OwnThread.run { server.wait { $0.requests.count == 1 } })
        token.cancel()

        #expect(try await OwnThread.run { try result.take() } == .failure(.cancelled))
        #expect(await OwnThread.run { server.wait { $0.closedByClient == 1 } }, "the server saw the client leave")
    }

    @Test func aRequestCancelledBeforeItWasSentNeverGoesOut() async throws {
        let server = try started { _, _ in .answer(status: 200, body: "{}") }
        defer { server.stop() }
        let transport = try transport(server)
        let token = CancellationToken()
        token.cancel()

        let result = try await awaitCompletion { done in
            transport.send(Self.post(), cancellation: token, completion: done)
        }

        #expect(result == .failure(.cancelled))
        #expect(server.requests.isEmpty)
    }

    // MARK: - Where nothing is sent

    @Test func aClosedPortIsUnreachable() async throws {
        let port = try closedLoopbackPort()
        let transport = try PlainHTTPTransport(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")))

        let result = try await awaitCompletion { done in transport.send(Self.post(), completion: done) }

        #expect(result == .failure(.unreachable(reason: "connection refused")))
    }

    @Test func aHeaderThatWouldBreakTheFramingIsNotSent() async throws {
        let server = try started { _, _ in .answer(status: 200, body: "{}") }
        defer { server.stop() }
        var request = Self.post()
        request.headers["X-Injected"] = "a\r\nContent-Length: 0"

        let result = try await send(request, over: transport(server))

        #expect(
            result
                == .failure(
                    .unreachable(reason: "the request's header 'x-injected' is not valid HTTP; nothing was sent")))
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: ["https://auth.example.com", "ftp://127.0.0.1/", "http:///nohost"])
    func aURLThatIsNotPlainHTTPIsRefused(url: String) throws {
        let error = #expect(throws: PlainHTTPTransport.UnsupportedURL.self) {
            try PlainHTTPTransport(baseURL: try #require(URL(string: url)))
        }
        #expect(error?.description.contains("use URLSessionTransport for https://") == true)
    }

    @Test func theBaseURLsPathPrefixesEveryRequest() async throws {
        let server = try started { _, _ in .answer(status: 200, body: "{}") }
        defer { server.stop() }
        let transport = try PlainHTTPTransport(
            baseURL: try #require(URL(string: "http://localhost:\(server.port)/api/")), scheduler: TestScheduler())

        _ = try await send(over: transport).get()

        #expect(server.requests.first?.target == "/api/v1/auth/phone")
        #expect(server.requests.first?.headers["host"] == "localhost:\(server.port)")
    }
}
