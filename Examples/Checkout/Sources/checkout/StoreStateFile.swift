import Checkout
import Foundation
import OperationsRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The fake store's records in the state directory, `store/state.json`, so that a rerun in a new
/// process meets the store the first process left — the reservation it holds, the charge made,
/// the first answer per idempotency key — as opctl's simulator does
/// (`Sources/opctl/CLI/SimulatorStateFile.swift` in the repository's root).
///
/// - The folder is owner-only (0700), the file too (0600).
/// - Each transaction holds an exclusive `flock` on `store/state.lock`, a file of its own because
///   the state is replaced on every write: two processes take turns per request.
/// - A write goes to a temporary file renamed over the state (`OwnerOnlyFile`): a process killed
///   mid-write leaves the old records or the new.
struct StoreStateFile: StoreStateKeeper {
    /// The store's folder in the state directory.
    let directory: URL
    /// The records.
    var file: URL { directory.appendingPathComponent("state.json") }

    /// The store's records in `stateDirectory`; the folder is made by the first transaction.
    init(stateDirectory: URL) {
        directory = stateDirectory.appendingPathComponent("store", isDirectory: true)
    }

    /// Why the store's records cannot be kept, naming the place and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `transaction` under the lock with the file's bytes and replaces the file with what it
    /// returns; see ``StoreStateKeeper``.
    func withExclusiveAccess(_ transaction: (Data?) -> Data?) throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("state.lock").path
        let lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw Failure(description: "cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw Failure(description: "cannot lock \(path): \(String(cString: strerror(errno)))")
            }
        }
        defer { _ = flock(lock, LOCK_UN) }
        guard let bytes = transaction(FileManager.default.contents(atPath: file.path)) else { return }
        try OwnerOnlyFile.write(bytes, to: file)
    }
}
