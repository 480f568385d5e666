import AuthFlow
import AuthSimulator
import Foundation
import HTTPTestSupport
import Operations
import Testing

/// The failure sequence that once moved money twice: a request acts and its answer is lost, then
/// the service answers 503 twice. Over a real socket, against the built binary, every request
/// with side effects acts once, in the run and across a failed run and its rerun.
@Suite(.serialized)
struct LostAnswerThenOutageEndToEndTests {
    static let phone = "+79991234567"
    static let acting: [SimulatedBackend.Endpoint] = [.termsAccept, .codeSend, .codeVerify]

    private func backend(
        unavailableTimes: Int, on endpoints: [SimulatedBackend.Endpoint] = acting
    ) -> SimulatedBackend {
        var configuration = SimulatedBackend.Configuration()
        for endpoint in endpoints {
            configuration.faults[endpoint] = [.lostResponse(times: 1), .unavailable(times: unavailableTimes)]
        }
        return SimulatedBackend(configuration: configuration)
    }

    private func expectOneActionEach(_ backend: SimulatedBackend, _ server: RecordingServer) {
        #expect(backend.sentSMS.count == 1, "one SMS")
        for endpoint in Self.acting {
            #expect(
                backend.actionCount(for: endpoint) == 1, "\(endpoint) acted \(backend.actionCount(for: endpoint)) times"
            )
        }
        let send = Set(server.idempotencyKeys(pathEndingWith: "code/send"))
        let verify = Set(server.idempotencyKeys(pathEndingWith: "code/verify"))
        let accept = Set(server.idempotencyKeys(pathEndingWith: "terms/accept"))
        #expect(send.count == 1 && verify.count == 1 && accept.count == 1, "one key per request, kept by every repeat")
        #expect(send.isDisjoint(with: verify) && send.isDisjoint(with: accept), "distinct keys per endpoint")
    }

    /// CodeOp sends two requests an attempt, so its send and its verification are faulted in
    /// separate runs: three attempts hold one faulted request's lost answer, 503 and answer.
    @Test(arguments: [[SimulatedBackend.Endpoint.termsAccept, .codeVerify], [.codeSend]])
    func aLostAnswerThenA503ActsOnceInOneRun(faulted: [SimulatedBackend.Endpoint]) throws {
        // Three attempts a step: the lost answer, the 503, then the answer kept under the key.
        let backend = backend(unavailableTimes: 1, on: faulted)
        let server = try RecordingServer(serving: backend)
        defer { server.stop() }
        let sandbox = try Sandbox()
        let result = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            server.baseURL.absoluteString)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Signed in."), "\(result)")
        expectOneActionEach(backend, server)
    }

    @Test func aRunThatFailsThatWayAndItsRerunActOnceInAll() throws {
        let backend = backend(unavailableTimes: 2)
        let server = try RecordingServer(serving: backend)
        defer { server.stop() }
        let sandbox = try Sandbox()
        // Three attempts a step: the lost answer, then two 503s; the run fails at the first
        // endpoint, and each rerun gets one endpoint further.
        let failed = try sandbox.run(
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            server.baseURL.absoluteString)
        #expect(failed.status == 1, "\(failed)")
        let id = try #require(runID(in: failed.stderr), "\(failed)")
        let shown = try sandbox.run("show", id)
        #expect(shown.stdout.contains("in doubt"), "a step whose request may have acted is marked:\n\(shown)")
        #expect(shown.stdout.contains("idk…"), "with its key's short form:\n\(shown)")
        #expect(!shown.stdout.contains(server.idempotencyKeys(pathEndingWith: "terms/accept").first ?? "-"))
        var result = failed
        for _ in 0..<3 where result.status != 0 {
            result = try sandbox.run(
                "rerun", id, "--code", "123456", "--backend", server.baseURL.absoluteString)
        }
        #expect(result.status == 0, "\(result)")
        expectOneActionEach(backend, server)
    }
}
