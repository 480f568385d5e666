import Foundation
import HTTPTestSupport
import LoopbackHTTP
import Operations
import OperationsJournal
import Testing

@testable import OperationsRunner
@testable import opctl

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `opctl ui` over real sockets on 127.0.0.1 (issue 39, points 1 and 3): the server `ui` starts
/// (``ServeRuns/listen(_:store:stateDirectoryOption:readTimeout:)``) in this process, spoken to
/// byte by byte, and the command itself in a process of its own for its first line and Ctrl-C.
/// After every bad request a good one is still answered: no request stops the server.
@Suite(.serialized)
struct WebViewServerTests {
    /// A server of `sandbox`'s runs on a free port, with `readTimeout` to send a request.
    private func serve(_ sandbox: Sandbox, readTimeout: Duration = .seconds(10)) throws -> HTTPServer {
        try ServeRuns<Opctl>.listen(
            0, store: Opctl.configuration.runStore(sandbox.stateDirectory), stateDirectoryOption: nil,
            readTimeout: readTimeout)
    }

    /// `GET target` with the `Host` given (none for `nil`), as raw bytes.
    private func request(_ target: String, host: String?, version: String = "HTTP/1.1", method: String = "GET")
        -> [UInt8]
    {
        Array("\(method) \(target) \(version)\r\n\(host.map { "Host: \($0)\r\n" } ?? "")\r\n".utf8)
    }

    private func get(_ target: String, _ server: HTTPServer, host: String? = nil) throws -> RawHTTPConnection.Reply {
        try RawHTTPConnection(port: server.port).exchange(request(target, host: host ?? "127.0.0.1:\(server.port)"))
    }

    /// The server still answers a good request.
    private func expectServing(_ server: HTTPServer, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reply = try get("/", server)
        #expect(reply.status == 200, "\(reply)", sourceLocation: sourceLocation)
    }

    @Test func itListensOnLoopbackOnly() throws {
        let server = try serve(Sandbox())
        defer { server.stop() }
        #expect(server.host == "127.0.0.1")
        #expect(server.isLoopback)
    }

    @Test func onlyRequestsAddressedToItsLoopbackPortAreServed() throws {
        let server = try serve(Sandbox())
        defer { server.stop() }
        let port = server.port
        for host in ["evil.example:\(port)", "127.0.0.1:\(port &+ 1)", "127.0.0.1", "localhost", "[::1]:\(port)"] {
            let reply = try get("/", server, host: host)
            #expect(reply.status == 403, "\(host): \(reply)")
            #expect(reply.body.contains("only requests addressed to 127.0.0.1:\(port)"), "\(host): \(reply)")
            #expect(!reply.body.contains("Runs"), "\(host): \(reply)")
        }
        // HTTP/1.0 may leave the Host out; it is refused all the same. HTTP/1.1 must send one
        // (RFC 9112, section 3.2): 400.
        let noHost10 = try RawHTTPConnection(port: port).exchange(request("/", host: nil, version: "HTTP/1.0"))
        #expect(noHost10.status == 403, "\(noHost10)")
        let noHost11 = try RawHTTPConnection(port: port).exchange(request("/", host: nil))
        #expect(noHost11.status == 400, "\(noHost11)")
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)"] {
            let reply = try get("/", server, host: host)
            #expect(reply.status == 200, "\(host): \(reply)")
            #expect(reply.body.contains("<h1>Runs</h1>"), "\(host): \(reply)")
        }
    }

    @Test func everyAnswerCarriesTheSameSafetyHeaders() throws {
        let sandbox = try Sandbox()
        let id = try sandbox.fixtures.write(.failed, startedAt: Date())
        let server = try serve(sandbox)
        defer { server.stop() }
        let expected = [
            "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:",
            "X-Content-Type-Options: nosniff", "Referrer-Policy: no-referrer", "Cache-Control: no-store",
            "Connection: close",
        ]
        let answers: [(String, String?, Int, String)] = [
            ("/", nil, 200, "text/html; charset=utf-8"),
            ("/runs/\(id)", nil, 200, "text/html; charset=utf-8"),
            ("/nowhere", nil, 404, "text/html; charset=utf-8"),
            ("/", "evil.example", 403, "text/html; charset=utf-8"),
            ("/?page=0", nil, 400, "text/html; charset=utf-8"),
        ]
        for (target, host, status, type) in answers {
            let reply = try get(target, server, host: host)
            let head = reply.text.components(separatedBy: "\r\n\r\n").first ?? ""
            #expect(reply.status == status, "\(target): \(reply)")
            #expect(head.contains("Content-Type: \(type)"), "\(target): \(head)")
            #expect(head.contains("Content-Length: \(reply.body.utf8.count)"), "\(target): \(head)")
            for header in expected { #expect(head.contains(header), "\(target): \(header) missing from \(head)") }
        }
        // The server's own refusals are pages with the same headers.
        let refused = try RawHTTPConnection(port: server.port).exchange(Array("NOT A REQUEST\r\n\r\n".utf8))
        #expect(refused.status == 400, "\(refused)")
        for header in expected { #expect(refused.text.contains(header), "\(header) missing from \(refused)") }
        #expect(refused.text.contains("Content-Type: text/html; charset=utf-8"), "\(refused)")
    }

    @Test func badRequestsGetAClearAnswerAndTheServerGoesOn() throws {
        let sandbox = try Sandbox()
        let id = try sandbox.fixtures.write(.succeeded, startedAt: Date())
        let server = try serve(sandbox)
        defer { server.stop() }
        let port = server.port
        let host = "Host: 127.0.0.1:\(port)\r\n"
        let raw: [(String, [UInt8], Int)] = [
            (
                "oversized head",
                Array("GET / HTTP/1.1\r\n\(host)X-Big: \(String(repeating: "a", count: 9000))\r\n\r\n".utf8), 431
            ),
            ("huge query", request("/?page=" + String(repeating: "1", count: 3000), host: "127.0.0.1:\(port)"), 414),
            ("malformed request line", Array("GET /\r\n\(host)\r\n".utf8), 400),
            ("not HTTP", Array("HELLO THERE\r\n\r\n".utf8), 400),
            ("POST", request("/", host: "127.0.0.1:\(port)", method: "POST"), 405),
            ("DELETE", request("/runs/\(id)", host: "127.0.0.1:\(port)", method: "DELETE"), 405),
        ]
        for (name, bytes, status) in raw {
            let reply = try RawHTTPConnection(port: port).exchange(bytes)
            #expect(reply.status == status, "\(name): \(reply)")
            #expect(reply.text.contains("<!DOCTYPE html>"), "\(name): \(reply)")
            try expectServing(server)
        }
        // A request cut off: the client sends part of it and goes.
        do {
            let truncated = try RawHTTPConnection(port: port)
            truncated.send("GET /runs/\(id) HTTP/1.1\r\nHo")
        }
        try expectServing(server)

        let pages: [(String, Int, String)] = [
            ("/nowhere", 404, "There is no page at this address."),
            ("/runs/20250101-120000-000-1a2b3c4d", 404, "There is no run '20250101-120000-000-1a2b3c4d'"),
            (
                "/runs/%3Cscript%3Ealert(1)%3C%2Fscript%3E", 404,
                "There is no run '&lt;script&gt;alert(1)&lt;/script&gt;'"
            ),
            ("/?page=-1", 400, "The page '-1' is not a whole number of at least 1."),
            ("/?page=abc", 400, "The page 'abc' is not a whole number"),
            ("/runs/\(id)?depth=abc", 400, "The depth 'abc' is not a whole number from 1 to 10000."),
            ("/runs/\(id)/diagram?format=xyz", 400, "The format 'xyz' is not one of text"),
            ("/runs/\(id)/diagram?depth=0", 400, "The depth '0'"),
            ("/runs/\(id)/diagram", 422, "Run \(id) has no recorded trace."),
            ("/runs/\(id)?step=%zz", 400, "The address holds a '%'"),
        ]
        for (target, status, sentence) in pages {
            let reply = try get(target, server)
            #expect(reply.status == status, "\(target): \(reply)")
            #expect(reply.body.contains(sentence), "\(target): \(reply.body)")
            #expect(!reply.body.contains("<script>"), "\(target): \(reply.body)")
            try expectServing(server)
        }
    }

    @Test func aSlowClientHoldsUpNoOtherRequest() throws {
        // The slow request's deadline is far beyond the other requests' patience: they are
        // answered while it is open, or the test fails, however loaded the machine.
        let server = try serve(Sandbox(), readTimeout: .seconds(600))
        defer { server.stop() }
        let slow = try RawHTTPConnection(port: server.port)
        slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Slow: ")
        for _ in 0..<3 {
            let reply = try RawHTTPConnection(port: server.port, receiveTimeout: .seconds(120))
                .exchange(request("/", host: "127.0.0.1:\(server.port)"))
            #expect(reply.status == 200 && reply.closed, "\(reply)")
        }
    }

    @Test func aSlowClientGets408AndTheServerGoesOn() throws {
        let server = try serve(Sandbox(), readTimeout: .seconds(1))
        defer { server.stop() }
        let slow = try RawHTTPConnection(port: server.port, receiveTimeout: .seconds(120))
        slow.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nX-Slow: ")
        let reply = slow.readToEnd()
        #expect(reply.status == 408, "\(reply)")
        #expect(reply.closed, "\(reply)")
        #expect(reply.text.contains("<!DOCTYPE html>"), "\(reply)")
        try expectServing(server)
    }

    @Test func aDamagedJournalGetsAnErrorPageNotACrash() throws {
        let sandbox = try Sandbox()
        let good = try sandbox.fixtures.write(.succeeded, startedAt: Date(timeIntervalSinceNow: -60))
        let damaged = RunID.make(at: Date())
        try Data("not a journal\n".utf8).write(to: sandbox.fixtures.journal(damaged))
        let server = try serve(sandbox)
        defer { server.stop() }
        let page = try get("/runs/\(damaged)", server)
        #expect(page.status == 422, "\(page)")
        #expect(page.body.contains("Run \(damaged) cannot be read"), "\(page.body)")
        let diagram = try get("/runs/\(damaged)/diagram", server)
        #expect(diagram.status == 422, "\(diagram)")
        let runs = try get("/", server)
        #expect(runs.status == 200, "\(runs)")
        #expect(runs.body.contains("damaged") && runs.body.contains("\(good)"), "\(runs.body)")
        // HEAD: the GET answer's head, no body.
        let head = try RawHTTPConnection(port: server.port).exchange(
            request("/runs/\(good)", host: "127.0.0.1:\(server.port)", method: "HEAD"))
        let full = try get("/runs/\(good)", server)
        #expect(head.status == 200 && head.body.isEmpty, "\(head)")
        #expect(head.text.contains("Content-Length: \(full.body.utf8.count)\r\n"), "\(head)")
    }

    @Test func aHostileJournalIsShownAsText() throws {
        let sandbox = try Sandbox()
        let hostile = #"<script>alert("x")</script> & 'q'"#
        let json = #"<script>alert(\"x\")</script> & 'q'"#
        let id = RunID.make(at: Date())
        let step = #"[{"index":0,"name":"\#(json)"}]"#
        let error = #"{"description":"\#(json)","type":"TestError","transient":false,"cancelled":false}"#
        let lines = [
            #"{"format":"operations.journal","version":1,"run":"\#(id)","scenario":"\#(json)","createdAt":"2025-01-01T12:00:00.000Z"}"#,
            #"{"event":"runStarted","at":1735732800000}"#,
            #"{"event":"stepLaunched","at":1735732800001,"address":\#(step),"attempt":1,"purity":"pure"}"#,
            #"{"event":"stepFailed","at":1735732800002,"address":\#(step),"attempt":1,"durationMs":1.0,"error":\#(error),"willRetry":false}"#,
            #"{"event":"runFinished","at":1735732800003,"status":"failed","error":\#(error)}"#,
        ]
        try FileManager.default.createDirectory(at: sandbox.runsDirectory, withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: sandbox.fixtures.journal(id))
        let server = try serve(sandbox)
        defer { server.stop() }
        let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;"
        let textEscaped = #"&lt;script&gt;alert("x")&lt;/script&gt; &amp; 'q'"#
        for target in ["/", "/runs/\(id)"] {
            let reply = try get(target, server)
            #expect(reply.status == 200, "\(target): \(reply)")
            #expect(!reply.body.contains("<script"), "\(target): \(reply.body)")
            #expect(!reply.body.contains(hostile), "\(target): \(reply.body)")
            #expect(reply.body.contains(textEscaped) || reply.body.contains(escaped), "\(target): \(reply.body)")
        }
        try expectServing(server)
    }

    @Test func theDiagramRouteServesWhatDiagramPrints() throws {
        let sandbox = try Sandbox()
        let opctl = InProcessOpctl(stateDirectory: sandbox.stateDirectory)
        let run = opctl.run("run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456")
        #expect(run.status == 0, "\(run)")
        let id = try #require(try Opctl.configuration.runStore(sandbox.stateDirectory).summaries().last?.id)
        let server = try serve(sandbox)
        defer { server.stop() }
        for (format, type) in [("text", "text/plain"), ("plantuml", "text/plain"), ("svg", "image/svg+xml")] {
            let printed = opctl.run(
                "diagram", "--run", "\(id)", "--format", format == "text" ? "unicode" : format, "--depth", "3",
                "--step", "CodeOp", "--width", "100")
            #expect(printed.status == 0, "\(printed)")
            let reply = try get("/runs/\(id)/diagram?format=\(format)&depth=3&step=CodeOp", server)
            #expect(reply.status == 200, "\(format): \(reply)")
            #expect(reply.text.contains("Content-Type: \(type); charset=utf-8"), "\(format): \(reply)")
            #expect(reply.body == printed.stdout, "\(format)")
        }
        let page = try get("/runs/\(id)?depth=1", server)
        #expect(page.status == 200, "\(page)")
        #expect(page.body.contains("<svg"), "\(page.body.prefix(500))")
    }

    @Test func uiPrintsWhereItServesAndCtrlCStopsItCleanly() throws {
        let sandbox = try Sandbox()
        for (stop, name) in [(OpctlProcess.interrupt, "SIGINT"), (OpctlProcess.terminate, "SIGTERM")] {
            let process = try sandbox.start(["ui", "--port", "0"])
            let output = try process.waitForStdout(containing: "(Ctrl-C stops)\n")
            let line = String(output.split(separator: "\n").first ?? "")
            let match = try #require(
                line.wholeMatch(of: /Serving the runs of opctl at http:\/\/127\.0\.0\.1:(\d+)\/ \(Ctrl-C stops\)/),
                "\(name): \(line)")
            let port = try #require(UInt16(match.1))
            let reply = try RawHTTPConnection(port: port).exchange(request("/", host: "localhost:\(port)"))
            #expect(reply.status == 200, "\(name): \(reply)")
            stop(process)()
            let ended = try process.wait()
            #expect(ended.status == 0 && ended.signal == nil, "\(name): \(ended)")
        }
    }
}
