import AuthFlow
import AuthSimulator
import Foundation
import HTTPTestSupport
import Operations
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A killed or interrupted opctl keeps its record: Ctrl-C at any moment, the trace up to the
/// moment it stopped, no temporary-file litter; against the built binary and a real socket.
@Suite(.serialized)
struct DurableRunEndToEndTests {
    static let phone = "+79991234567"

    @Test func ctrlCWhileARequestHangsExits130AtOnceAndTheServerSeesTheClose() throws {
        let server = try RecordingServer()
        defer { server.stop() }
        server.hold(pathEndingWith: "code/send")
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            server.baseURL.absoluteString,
        ])
        let arrived = server.wait { $0.heldArrivals == 1 }
        try #require(arrived, "code/send never reached the server: \(process.stderr)")

        let interruptedAt = Date()
        process.interrupt()
        let result = try process.wait()
        let seconds = Date().timeIntervalSince(interruptedAt)
        print("SIGINT to exit: \(Int(seconds * 1000)) ms")
        #expect(result.status == 130, "\(result)")
        #expect(result.signal == nil, "\(result)")
        #expect(seconds < 2, "took \(seconds) s from SIGINT to exit")
        let sawTheClose = server.wait { $0.closedWhileHeld == 1 }
        #expect(sawTheClose, "the server did not see the connection close")

        let id = try #require(runID(in: result.stderr), "\(result)")
        let listing = try sandbox.run("runs", "--json")
        let runs = try #require(try parseJSON(listing.stdout) as? [[String: Any]], "\(listing)")
        #expect(runs.first { $0["id"] as? String == id }?["status"] as? String == "interrupted", "\(listing)")

        // The trace was journaled as it happened and draws up to the moment it stopped.
        let diagram = try sandbox.run("diagram", "--run", id, "--format", "plantuml")
        #expect(diagram.status == 0, "\(diagram)")
        #expect(diagram.stdout.contains("cut off"), "\(diagram)")
        #expect(diagram.stdout.contains("@enduml"), "\(diagram)")

        // No temporary file is left in the runs folder, and what is there is owner-only (the
        // drafts' folder, 0700).
        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.runsDirectory.path)
        #expect(!names.contains { $0.contains("nosync") || $0.hasSuffix(".tmp") }, "\(names)")
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: sandbox.runsDirectory.appendingPathComponent(name).path)
            #expect((attributes[.posixPermissions] as? Int) == (name == ".drafts" ? 0o700 : 0o600), "\(name)")
        }
    }

    @Test func ctrlCBeforeTheRunStartsExits130() throws {
        let sandbox = try Sandbox()
        // SIGINT at the earliest moment we can send it: right after spawning.
        let process = try sandbox.start(["runs"])
        process.interrupt()
        let result = try process.wait()
        // Either the handler was there (130) or the command had already finished (0); never a
        // death by the signal.
        #expect(result.signal == nil, "\(result)")
        #expect([0, 130].contains(result.status), "\(result)")
    }

    @Test
    func killedWhileTheCodeIsSentRerunsWithTheSameKeyAndOneSMS() throws {
        let sms = LockedState(0)
        var configuration = SimulatedBackend.Configuration()
        configuration.onSMS = { _ in sms.withLock { $0 += 1 } }
        let server = try RecordingServer(serving: SimulatedBackend(configuration: configuration))
        defer { server.stop() }
        server.hold(pathEndingWith: "code/send")
        let sandbox = try Sandbox()
        let process = try sandbox.start([
            "run", "auth", "--phone", Self.phone, "--accept-terms", "--code", "123456", "--backend",
            server.baseURL.absoluteString,
        ])
        try #require(
            server.wait { $0.heldArrivals == 1 }, "code/send never arrived: \(process.stderr)")
        process.killNow()
        _ = try process.wait()
        server.release()

        let names = try FileManager.default.contentsOfDirectory(atPath: sandbox.runsDirectory.path)
        let id = try #require(
            names.first { $0.hasSuffix(".jsonl") && !$0.contains(".trace") }.map {
                String($0.dropLast(".jsonl".count))
            }, "\(names)")
        let rerun = try sandbox.run("rerun", id, "--code", "123456")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(sms.withLock { $0 } == 1, "the server sent \(sms.withLock { $0 }) SMS")
        let keys = server.idempotencyKeys(pathEndingWith: "code/send")
        #expect(keys.count == 2 && Set(keys).count == 1, "keys seen: \(keys.count), distinct: \(Set(keys).count)")
    }
}
