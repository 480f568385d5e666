import Checkout
import Foundation
import OperationsRunner
import Testing

@testable import checkout

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fake store keeps its records in the state directory, so a checkout killed while it waits
/// for its payment to settle is finished by a rerun in another process that meets the same store:
/// the stock reserved once, the card charged once, the order confirmed once.
@Suite struct KilledCheckoutRerunTests {
    let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID())")

    @Test func aCheckoutKilledInItsSettlementWaitIsFinishedByItsRerunWithEachEffectOnce() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let process = try start(["run", "checkout", "--pending-polls", "1", "--settle-every", "5s"])
        // The wait between polls is journaled before it starts: killed in it, the run has charged.
        let journal = try waitForJournal(containing: "\"nextPollAt\"", of: process)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let id = journal.deletingPathExtension().lastPathComponent

        let store = Store(keeper: StoreStateFile(stateDirectory: stateDirectory))
        #expect(store.charges.count == 1, "the first process charged, and the store kept it")
        #expect(store.confirmations.isEmpty)

        let rerun = InProcessCheckout.run(["rerun", id, "--state-dir", stateDirectory.path])
        #expect(rerun.status == 0, "\(rerun)")
        #expect(rerun.stdout.contains("confirmed"), "\(rerun)")
        #expect(store.reservationsMade == 1, "reserved once")
        #expect(store.charges.count == 1, "charged once")
        #expect(store.confirmations.count == 1, "confirmed once")
        #expect(store.heldReservations.isEmpty, "the reservation became the order")
    }

    @Test func theStoreIsOwnerOnly() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let run = InProcessCheckout.run(["run", "checkout", "--state-dir", stateDirectory.path])
        #expect(run.status == 0, "\(run)")
        let folder = stateDirectory.appendingPathComponent("store")
        let manager = FileManager.default
        #expect(try manager.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int == 0o700)
        for name in ["state.json", "state.lock"] {
            let file = folder.appendingPathComponent(name).path
            #expect(try manager.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600, "\(name)")
        }
    }

    // MARK: - Helpers

    /// Starts the built `checkout` beside the test bundle, its output thrown away.
    private func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = arguments + ["--state-dir", stateDirectory.path]
        process.environment = ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The run's journal once it holds `text`; fails when the process ends first or a minute passes.
    private func waitForJournal(containing text: String, of process: Process) throws -> URL {
        let runs = stateDirectory.appendingPathComponent("runs")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runs.path)) ?? []
            for name in names where name.hasSuffix(".jsonl") {
                let url = runs.appendingPathComponent(name)
                if let content = try? String(contentsOf: url, encoding: .utf8), content.contains(text) { return url }
            }
            try #require(process.isRunning, "checkout ended before its journal held \(text)")
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        throw CheckoutNotWaiting()
    }

    private struct CheckoutNotWaiting: Error {}

    /// The `checkout` executable SwiftPM built next to the test bundle.
    private static func executable() throws -> URL {
        var candidates: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            let url = bundle.bundleURL
            candidates.append(
                url.pathExtension == "xctest"
                    ? url.deletingLastPathComponent().appendingPathComponent("checkout")
                    : url.appendingPathComponent("checkout"))
        }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "no built checkout among \(candidates.map(\.path))")
    }
}
