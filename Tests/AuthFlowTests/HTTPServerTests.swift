import AuthFlow
import AuthFlowURLSession
import AuthSimulator
import Dispatch
import Foundation
import HTTPTestSupport
import LoopbackHTTP
import Operations
import OperationsTesting
import Testing

/// ``HTTPServer`` over real sockets on 127.0.0.1: the simulator served to a real HTTP client, and
/// every kind of bad client answered with a status or a closed connection — never a crash, a hang
/// or a leaked secret.
struct HTTPServerTests {
    /// Generous: on a loaded machine a test's thread can stall between connecting and sending,
    /// and a short read timeout would then close the connection before the request came.
    static let patientLimits = HTTPServer.Limits(readTimeout: .seconds(10), answerTimeout: .seconds(5))
    /// For the tests about the read timeout: a fraction of a second each.
    static let quickReads = HTTPServer.Limits(readTimeout: .milliseconds(200), answerTimeout: .seconds(5))

    /// A server on a free port serving `backend`, whose log entries are collected in `log`.
    private func serve(
        _ backend: SimulatedBackend = Fixtures.backend(), limits: HTTPServer.Limits = patientLimits,
        log: LockedState<[HTTPServer.LogEntry]> = LockedState([])
    ) throws -> HTTPServer {
        do {
            return try HTTPServer(serving: backend, limits: limits) { entry in log.withLock { $0.append(entry) } }
        } catch {
            try Test.cancel("no HTTP server on 127.0.0.1: \(error)")
        }
    }

    private static let phoneBody = #"{"phone":"+79991234567"}"#

    // MARK: - A real client

    @Test func aSignInThroughURLSessionAgainstTheServedSimulator() async throws {
        let backend = Fixtures.backend()
        let log = LockedState<[HTTPServer.LogEntry]>([])
        let server = try serve(backend, log: log)
        defer { server.stop() }
        #expect(server.host == "127.0.0.1" && server.isLoopback && server.port != 0)
        let url = try #require(URL(string: server.baseURL))
        let api = HTTPAuthAPI(transport: URLSessionTransport(baseURL: url), timeout: TestTimeout.standard)

        let phoneToken = try await api.readyForCode()
        #expect(try await api.verifyCode("000000", phoneToken: phoneToken) == .failure(.invalidCode(attemptsLeft: 2)))
        let token = try await api.verifyCode("123456", phoneToken: phoneToken).get()
        #expect(try await api.fetchSession(authToken: token).get().phone == Fixtures.phone)

        #expect(
            backend.requestCounts == [.phone: 1, .terms: 1, .termsAccept: 1, .codeSend: 1, .codeVerify: 2, .session: 1])
        let lines = log.withLock { $0 }.map(\.description)
        #expect(lines.count == 7, "\(lines)")
        #expect(lines.first?.hasPrefix("POST /v1/auth/phone 200 ") == true, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("POST /v1/auth/code/verify 400 ") }, "\(lines)")
        #expect(lines.last?.hasPrefix("GET /v1/auth/session 200 ") == true, "\(lines)")
    }

    @Test func headAnswersLikeGetWithoutTheBody() throws {
        let server = try serve()
        defer { server.stop() }
        let reply = try RawHTTPConnection(port: server.port).exchange(
            RawHTTPConnection.request("HEAD", "/v1/auth/terms"))
        #expect(reply.status == 401, "\(reply)")
        #expect(reply.text.contains("Content-Length: "), "\(reply)")
        #expect(reply.body.isEmpty, "\(reply)")
    }

    // MARK: - Bad input

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET /v1/auth/terms\r\nHost: x\r\n\r\n",
        "GET  /v1/auth/terms HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET v1/auth/terms HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /v1/auth/terms HTTP/one\r\nHost: x\r\n\r\n",
        "G(T /v1/auth/terms HTTP/1.1\r\nHost: x\r\n\r\n",
        "\u{1}\u{2}\u{3}\r\n\r\n",
    ])
    func aMalformedRequestLineIs400(_ request: String) throws {
        let server = try serve()
        defer { server.stop() }
        let reply = try RawHTTPConnection(port: server.port).exchange(Array(request.utf8))
        #expect(reply.status == 400, "\(reply)")
        #expect(reply.closed, "\(reply)")
        #expect(reply.body.contains(#""code":"bad_request""#), "\(reply)")
    }

    @Test(arguments: [
        ("GET /v1/auth/terms HTTP/1.1\r\n\r\n", 400),  // HTTP/1.1 without Host
        ("GET /v1/auth/terms HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 400),
        ("GET /v1/auth/terms HTTP/1.1\r\nHost: x\r\nBad Name: x\r\n\r\n", 400),
        ("POST /v1/auth/phone HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}", 400),
        ("POST /v1/auth/phone HTTP/1.1\r\nHost: x\r\nContent-Length: -2\r\n\r\n", 400),
        ("POST /v1/auth/phone HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", 411),
        ("POST /v1/auth/phone HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("PUT /v1/auth/phone HTTP/1.1\r\nHost: x\r\n\r\n", 405),  // not in the server's methods
        ("GET /v1/auth/terms HTTP/2.0\r\nHost: x\r\n\r\n", 505),
        ("DELETE /v1/auth/nowhere HTTP/1.1\r\nHost: x\r\n\r\n", 405),
        ("GET /v1/auth/nowhere HTTP/1.1\r\nHost: x\r\n\r\n", 404),  // the simulator's own answer
        ("POST /v1/auth/terms HTTP/1.1\r\nHost: x\r\n\r\n", 405),  // the simulator's own answer
    ])
    func anUnacceptableRequestGetsItsStatus(_ request: String, _ status: Int) throws {
        let server = try serve()
        defer { server.stop() }
        let reply = try RawHTTPConnection(port: server.port).exchange(Array(request.utf8))
        #expect(reply.status == status, "\(reply)")
        #expect(reply.closed, "\(reply)")
        #expect(reply.body.hasPrefix(#"{"error":{"#), "\(reply)")
    }

    @Test func headersOver16KiBAre431() throws {
        let server = try serve()
        defer { server.stop() }
        let filler = String(repeating: "a", count: 17 * 1024)
        let reply = try RawHTTPConnection(port: server.port).exchange(
            RawHTTPConnection.request("GET", "/v1/auth/terms", headers: [("X-Filler", filler)]))
        #expect(reply.status == 431, "\(reply)")
        #expect(reply.closed)
    }

    @Test func aRequestLineOver16KiBIs414() throws {
        let server = try serve()
        defer { server.stop() }
        let path = "/" + String(repeating: "a", count: 17 * 1024)
        let reply = try RawHTTPConnection(port: server.port).exchange(RawHTTPConnection.request("GET", path))
        #expect(reply.status == 414, "\(reply)")
    }

    @Test func aBodyOver64KiBIs413AndTheAnswerSurvivesTheUnreadBody() throws {
        let server = try serve()
        defer { server.stop() }
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 65 * 1024)
        let reply = try RawHTTPConnection(port: server.port).exchange(
            RawHTTPConnection.request(
                "POST", "/v1/auth/phone", headers: [("Content-Type", "application/json")], body: body))
        #expect(reply.status == 413, "\(reply)")
        #expect(reply.closed)
    }

    @Test func aBodyShorterThanItsLengthThenSilenceIs408AndClosedAfterTheReadTimeout() throws {
        // One second, not 200 ms: the 408 needs the partial request to arrive before the deadline,
        // which a test thread stalled between connect and send on a loaded machine could miss.
        let server = try serve(limits: HTTPServer.Limits(readTimeout: .seconds(1)))
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.port)
        var request = RawHTTPConnection.request("POST", "/v1/auth/phone", body: Self.phoneBody)
        request.removeLast(10)  // Content-Length still counts them
        connection.send(request)
        let reply = connection.readToEnd()
        #expect(reply.closed, "\(reply)")
        #expect(reply.elapsed < .seconds(4), "\(reply)")
        #expect(reply.status == 408, "\(reply)")
        #expect(reply.body.contains(#""code":"request_timeout""#), "\(reply)")
    }

    @Test func aClientThatSendsNothingIsClosedAfterTheReadTimeout() throws {
        let server = try serve(limits: Self.quickReads)
        defer { server.stop() }
        let reply = try RawHTTPConnection(port: server.port).readToEnd()
        #expect(reply.closed, "\(reply)")
        #expect(reply.bytes.isEmpty, "\(reply)")
        #expect(reply.elapsed < .seconds(3), "\(reply)")
    }

    @Test func halfARequestHeadThenSilenceIsClosedAfterTheReadTimeout() throws {
        let server = try serve(limits: Self.quickReads)
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.port)
        connection.send("POST /v1/auth/phone HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")
        let reply = connection.readToEnd()
        #expect(reply.closed, "\(reply)")
        #expect(reply.elapsed < .seconds(3), "\(reply)")
        // 408 when the half arrived before the deadline; a stalled sender may find it closed.
        #expect(reply.bytes.isEmpty || reply.status == 408, "\(reply)")
    }

    @Test func aClientDrippingBytesCannotOutlastTheReadTimeout() throws {
        let server = try serve(limits: Self.quickReads)
        defer { server.stop() }
        let connection = try RawHTTPConnection(port: server.port, receiveTimeout: .milliseconds(50))
        let head = Array("POST /v1/auth/phone HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
        connection.send(head)
        // One byte per 50 ms receive timeout: each read waits for the server, none sleeps.
        var reply = connection.readToEnd()
        var rounds = 0
        while !reply.closed && rounds < 100 {
            connection.send([UInt8(ascii: "a")])
            reply = connection.readToEnd()
            rounds += 1
        }
        #expect(reply.closed, "still open after \(rounds) bytes")
        #expect(rounds < 40, "the connection lived through \(rounds) rounds of 50 ms")
    }

    @Test func aNonJSONBodyGetsTheSimulatorsInvalidRequest() throws {
        let server = try serve()
        defer { server.stop() }
        let reply = try RawHTTPConnection(port: server.port).exchange(
            RawHTTPConnection.request(
                "POST", "/v1/auth/phone", headers: [("Content-Type", "application/json")], body: "phone=+79991234567"))
        #expect(reply.status == 400, "\(reply)")
        #expect(reply.body.contains(#""code":"invalid_request""#), "\(reply)")
        #expect(reply.text.contains("Content-Type: application/json"), "\(reply)")
    }

    @Test func twoHundredConnectionsAtOnceAreAllAnswered() throws {
        let server = try serve(limits: HTTPServer.Limits(readTimeout: TestTimeout.standard))
        defer { server.stop() }
        // All open at once before any sends a byte, so the server holds 200 connections together.
        let connections = try (0..<200).map { _ in
            try RawHTTPConnection(port: server.port)
        }
        let request = RawHTTPConnection.request("POST", "/v1/auth/phone", body: Self.phoneBody)
        for connection in connections { #expect(connection.send(request)) }
        var statuses: [Int: Int] = [:]
        for connection in connections {
            let reply = connection.readToEnd()
            statuses[reply.status ?? 0, default: 0] += 1
            if !reply.closed { break }  // one timed out: the rest would too; fail now, not in 30 min
        }
        #expect(statuses == [200: 200], "\(statuses)")
    }

    // MARK: - Transport outcomes

    @Test func aBackendThatDoesNotAnswerIs504AfterTheAnswerTimeout() throws {
        let backend = Fixtures.backend(faults: [.phone: [.hang(times: 1)]])
        let server = try serve(
            backend, limits: HTTPServer.Limits(readTimeout: .seconds(5), answerTimeout: .milliseconds(200)))
        defer { server.stop() }
        let reply = try RawHTTPConnection(port: server.port).exchange(
            RawHTTPConnection.request("POST", "/v1/auth/phone", body: Self.phoneBody))
        #expect(reply.status == 504, "\(reply)")
    }

    @Test func aLostAnswerClosesTheConnectionWithoutOne() throws {
        let backend = Fixtures.backend(faults: [.phone: [.lostResponse(times: 1)]])
        let log = LockedState<[HTTPServer.LogEntry]>([])
        let server = try serve(backend, log: log)
        defer { server.stop() }
        let reply = try RawHTTPConnection(port: server.port).exchange(
            RawHTTPConnection.request("POST", "/v1/auth/phone", body: Self.phoneBody))
        #expect(reply.closed && reply.bytes.isEmpty, "\(reply)")
        #expect(log.withLock { $0.map(\.outcome) } == [.answerLost])
    }

    @Test func aClientLeavingWhileItsAnswerIsPendingIsLogged() throws {
        let backend = Fixtures.backend(faults: [.phone: [.hang(times: 1)]])
        let left = DispatchSemaphore(value: 0)
        let server: HTTPServer
        do {
            server = try HTTPServer(serving: backend, limits: Self.patientLimits) { entry in
                if entry.outcome == .clientLeft { left.signal() }
            }
        } catch {
            try Test.cancel("no HTTP server on 127.0.0.1: \(error)")
        }
        defer { server.stop() }
        do {
            let connection = try RawHTTPConnection(port: server.port)
            connection.send(RawHTTPConnection.request("POST", "/v1/auth/phone", body: Self.phoneBody))
        }  // closed here, the answer still pending
        #expect(left.wait(timeout: .now() + TestTimeout.standard.dispatchInterval) == .success)
    }

    // MARK: - Idempotency and secrets

    @Test func anIdempotencyKeyReplayGetsTheSameAnswerAndTheLogShowsNoSecret() throws {
        let backend = Fixtures.backend(termsRequired: false)
        let log = LockedState<[HTTPServer.LogEntry]>([])
        let server = try serve(backend, log: log)
        defer { server.stop() }
        func exchange(_ method: String, _ target: String, headers: [(String, String)] = [], body: String = "")
            throws -> RawHTTPConnection.Reply
        {
            try RawHTTPConnection(port: server.port).exchange(
                RawHTTPConnection.request(method, target, headers: headers, body: body))
        }

        let started = try exchange("POST", "/v1/auth/phone", body: Self.phoneBody)
        struct Phone: Decodable { let phoneToken: String }
        let phoneToken = try JSONDecoder().decode(Phone.self, from: Data(started.body.utf8)).phoneToken
        let authorization = ("Authorization", "Bearer \(phoneToken)")
        let sendKey = IdempotencyKey.make().rawValue
        let verifyKey = IdempotencyKey.make().rawValue

        let sent = try exchange(
            "POST", "/v1/auth/code/send", headers: [authorization, ("Idempotency-Key", sendKey)], body: "{}")
        let sentAgain = try exchange(
            "POST", "/v1/auth/code/send", headers: [authorization, ("Idempotency-Key", sendKey)], body: "{}")
        #expect(sent.status == 200 && sentAgain.status == 200, "\(sent) / \(sentAgain)")
        #expect(sent.body == sentAgain.body)
        #expect(backend.sentSMS.count == 1, "a replay sent another SMS")

        let code = #"{"code":"123456"}"#
        let verified = try exchange(
            "POST", "/v1/auth/code/verify?code=123456", headers: [authorization, ("Idempotency-Key", verifyKey)],
            body: code)
        let verifiedAgain = try exchange(
            "POST", "/v1/auth/code/verify?code=123456", headers: [authorization, ("Idempotency-Key", verifyKey)],
            body: code)
        #expect(verified.status == 200, "\(verified)")
        // Without the key the second verify would be 410: the code is single-use.
        #expect(verifiedAgain.status == 200 && verifiedAgain.body == verified.body, "\(verifiedAgain)")
        struct Access: Decodable { let accessToken: String }
        let accessToken = try JSONDecoder().decode(Access.self, from: Data(verified.body.utf8)).accessToken
        #expect(backend.requestCounts[.codeVerify] == 2)

        let lines = log.withLock { $0 }.map(\.description)
        #expect(lines.count == 5, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("POST /v1/auth/code/verify?… 200 ") }, "\(lines)")
        for secret in [phoneToken, accessToken, sendKey, verifyKey, "123456", "sim1."] {
            #expect(!lines.contains { $0.contains(secret) }, "a log line shows a secret: \(lines)")
        }
    }

    // MARK: - Starting and stopping

    @Test func aPortInUseIsATypedErrorWithASentence() throws {
        let server = try serve()
        defer { server.stop() }
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: server.port)) {
            try HTTPServer(serving: Fixtures.backend(), port: server.port)
        }
        let sentence = HTTPServerError.addressInUse(host: "127.0.0.1", port: 8080).description
        #expect(sentence.contains("127.0.0.1:8080 is already in use"), "\(sentence)")
    }

    @Test func aHostThatIsNotAnAddressIsRefused() {
        #expect(throws: HTTPServerError.invalidHost("example.com")) {
            try HTTPServer(serving: Fixtures.backend(), host: "example.com")
        }
    }

    @Test func loopbackAddressesAreToldFromTheNetworkOnes() {
        for host in ["127.0.0.1", "127.1.2.3", "localhost", "::1", "::ffff:127.0.0.1"] {
            #expect(HTTPServer.isLoopback(host: host) == true, "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "fe80::1"] {
            #expect(HTTPServer.isLoopback(host: host) == false, "\(host)")
        }
        for host in ["example.com", "", "127.0.0.1:80", "256.1.1.1"] {
            #expect(HTTPServer.isLoopback(host: host) == nil, "\(host)")
        }
    }

    @Test func stopClosesTheListenerAndOpenConnectionsPromptly() throws {
        // The idle connection's read timeout is twice the test's bound on a hang, so a stop that
        // waited for it fails the bound, while a loaded machine's slow prompt stop passes.
        let server = try serve(limits: HTTPServer.Limits(readTimeout: TestTimeout.standard * 2))
        let idle = try RawHTTPConnection(port: server.port)
        let clock = ContinuousClock()
        let start = clock.now
        server.stop()
        #expect(clock.now - start < TestTimeout.standard)
        let reply = idle.readToEnd()
        #expect(reply.closed && reply.bytes.isEmpty, "\(reply)")
        #expect(throws: SocketFailure.self) { try RawHTTPConnection(port: server.port) }
        server.stop()  // again: nothing happens
    }
}
