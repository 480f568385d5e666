import Foundation
import OperationsRunner
import Testing

@testable import opctl

/// `opctl serve` as a user runs it: the built binary on a free port of 127.0.0.1, a second opctl
/// signing in against it over HTTP, Ctrl-C (or SIGTERM) to stop it. Nothing leaves loopback.
@Suite(.serialized)
struct ServeEndToEndTests {
    static let bannerPrefix = "serving the simulated sign-in backend on http://127.0.0.1:"

    /// Starts `opctl serve --port 0` and reads the port from the first line of its output.
    private func startServe(_ sandbox: Sandbox, _ extra: [String] = []) throws -> (OpctlProcess, UInt16) {
        let process = try sandbox.start(["serve", "--port", "0"] + extra)
        let output = try process.waitForStdout(containing: "(Ctrl-C to stop)\n")
        let firstLine = String(output.split(separator: "\n").first ?? "")
        #expect(firstLine.hasPrefix(Self.bannerPrefix), "\(firstLine)")
        let digits = firstLine.dropFirst(Self.bannerPrefix.count).prefix { $0.isNumber }
        let port = try #require(UInt16(digits), "no port in '\(firstLine)'")
        #expect(port != 0)
        return (process, port)
    }

    @Test func aRunSignsInAgainstTheServedSimulatorAndCtrlCStopsIt() throws {
        let sandbox = try Sandbox()
        let (serve, port) = try startServe(sandbox)

        let run = try sandbox.run(
            "run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456", "--backend",
            "http://127.0.0.1:\(port)")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("Signed in."), "\(run)")
        try serve.waitForStderr(containing: "POST /v1/auth/code/verify 200 ")

        serve.interrupt()
        let served = try serve.wait()
        #expect(served.status == 0, "\(served)")
        #expect(served.signal == nil, "\(served)")

        // One line per request, in order, and not one secret: no token (the simulator's start
        // with sim1.), no SMS code, no idempotency key (32 hex digits) anywhere in its output.
        let requests = served.stderrLines.filter { $0.hasPrefix("GET ") || $0.hasPrefix("POST ") }
        let routes = requests.map { $0.split(separator: " ").prefix(3).joined(separator: " ") }
        #expect(
            routes == [
                "POST /v1/auth/phone 200", "GET /v1/auth/terms 200", "POST /v1/auth/terms/accept 200",
                "POST /v1/auth/code/send 200", "POST /v1/auth/code/verify 200",
            ], "\(served)")
        #expect(served.stderr.contains("SMS sent to +79991234567 (code hidden"), "\(served)")
        #expect(!served.allOutput.contains("sim1."), "\(served)")
        // The phone number +79991234567 holds the digits of the code; only the number may.
        #expect(!served.allOutput.replacingOccurrences(of: "+79991234567", with: "").contains("123456"), "\(served)")
        #expect(served.allOutput.range(of: "[0-9a-f]{32}", options: .regularExpression) == nil, "\(served)")
        let token = try String(contentsOf: sandbox.tokenFile, encoding: .utf8)
        #expect(token.contains("sim1."), "the run saved no simulator token: \(token.count) bytes")
    }

    @Test func aPortInUseIsAnErrorAndSIGTERMStopsTheServer() throws {
        let sandbox = try Sandbox()
        let (serve, port) = try startServe(sandbox)

        let second = try sandbox.run("serve", "--port", "\(port)")
        #expect(second.status == 1, "\(second)")
        #expect(second.stderr.contains("127.0.0.1:\(port): the port is already in use"), "\(second)")
        #expect(second.stderr.contains("--port 0"), "\(second)")
        #expect(second.stdout.isEmpty, "\(second)")

        serve.terminate()
        let served = try serve.wait()
        #expect(served.status == 0 && served.signal == nil, "\(served)")
    }

    @Test func serveOptionsAreCheckedBeforeAnythingListens() {
        let opctl = InProcessOpctl()
        for arguments in [
            ["serve", "--port", "70000"], ["serve", "--port", "http"], ["serve", "--host", "example.com"],
            ["serve", "--backend", "http://127.0.0.1:1"], ["serve", "--backend", "sim:?code=12"], ["serve", "extra"],
        ] {
            let result = opctl.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("opctl: "), "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("See 'opctl serve --help'."), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
    }

    @Test func aNonLoopbackHostIsWarnedAbout() {
        for host in ["127.0.0.1", "127.8.9.10", "localhost", "::1"] {
            #expect(ServeCommand.exposureWarning(host: host) == nil, "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.20"] {
            #expect(ServeCommand.exposureWarning(host: host)?.contains("other machines can reach") == true, "\(host)")
        }
    }

    @Test func serveIsListedWithItsHelp() {
        let opctl = InProcessOpctl()
        #expect(opctl.run("--help").stdout.contains("serve"))
        let help = opctl.run("serve", "--help")
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("USAGE: opctl serve"), "\(help.stdout)")
        #expect(help.stdout.contains("standard error gets one line per request"), "\(help.stdout)")
    }
}
