import AuthSimulator
import Dispatch
import Foundation
import Operations
import Testing

@testable import opctl

/// `simulator/state.json` as a ``SimulatorStateStore``: two opctl processes take turns on it, so
/// neither writes over what the other stored meanwhile; what it cannot read reaches the simulator
/// as a reason, not a crash.
struct SimulatorStateFileTests {
    /// Two stores over one folder open the lock file apart, as two processes do: a `flock` of one
    /// excludes the other.
    @Test func twoStoresOverOneFolderLoseNoneOfEachOthersUpdates() throws {
        let sandbox = try Sandbox()
        let stores = [
            SimulatorStateFile(stateDirectory: sandbox.stateDirectory),
            SimulatorStateFile(stateDirectory: sandbox.stateDirectory),
        ]
        try FileManager.default.createDirectory(at: sandbox.stateDirectory, withIntermediateDirectories: true)
        for store in stores { try store.prepare() }
        let rounds = 200
        let failures = LockedState(0)
        DispatchQueue.concurrentPerform(iterations: stores.count) { index in
            for _ in 0..<rounds {
                do {
                    try stores[index].withExclusiveAccess { stored in
                        let text = (try? stored.get()).flatMap { $0 }.map { String(decoding: $0, as: UTF8.self) }
                        return Data(String((text.flatMap { Int($0) } ?? 0) + 1).utf8)
                    }
                } catch {
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let stored = try String(contentsOf: stores[0].file, encoding: .utf8)
        #expect(stored == String(rounds * stores.count), "read-modify-writes were lost")
    }

    @Test func aMissingStateIsNoneAndAnUnreadableOneIsAReason() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.stateDirectory, withIntermediateDirectories: true)
        let store = SimulatorStateFile(stateDirectory: sandbox.stateDirectory)
        try store.prepare()
        try store.withExclusiveAccess { stored in
            #expect(stored == .success(nil))
            return nil
        }
        #expect(!FileManager.default.fileExists(atPath: store.file.path), "nothing returned, nothing written")

        try FileManager.default.createDirectory(at: store.file, withIntermediateDirectories: false)
        try? store.withExclusiveAccess { stored in
            #expect(stored == .failure(SimulatorStateStoreError("\(store.file.path) is not a regular file")))
            return nil
        }
    }
}
