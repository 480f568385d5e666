import AuthSimulator
import Foundation
import Operations
import OperationsRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The embedded simulator's state in opctl's state directory, `simulator/state.json`, so that a
/// rerun in a new process meets the backend the first process left — the code it sent, the
/// attempts spent, the answers kept per idempotency key — as a client of `opctl serve` does.
///
/// - The folder is owner-only (0700), the file too (0600): it holds what a server keeps, pending
///   codes and the kept answers that carry access tokens.
/// - Each transaction holds an exclusive `flock` on `simulator/state.lock`, a file of its own
///   because the state file is replaced on every write: two opctl processes take turns per
///   request, so neither writes over what the other stored meanwhile.
/// - A write goes to a temporary file renamed over the state (``OwnerOnlyFile``): a process killed
///   mid-write leaves the old state or the new. It is not synced: a power loss may cost the
///   latest changes, or leave a state the next process finds damaged and replaces.
///
/// Docs/Architecture.md (*The simulator's state*) has the format.
final class SimulatorStateFile: SimulatorStateStore {
    /// The simulator's folder in the state directory.
    let directory: URL
    /// The state file, for messages.
    let file: URL
    /// The lock file's descriptor once opened, kept for the store's life: every transaction's
    /// `flock` is taken on it. Guarded, as a `flock` excludes other open files, not other
    /// threads using this one.
    private let lockDescriptor = LockedState<Int32?>(nil)

    /// The largest state read; anything bigger is not a state this build wrote (expired entries
    /// are dropped on every write) and is treated as damaged rather than read into memory.
    static let largestState = 64 << 20

    /// The state of the simulator in `stateDirectory`; nothing is touched until ``prepare()``.
    init(stateDirectory: URL) {
        directory = stateDirectory.appendingPathComponent("simulator", isDirectory: true)
        file = directory.appendingPathComponent("state.json")
    }

    deinit {
        if let descriptor = lockDescriptor.withLock({ $0 }) { close(descriptor) }
    }

    /// Creates the simulator's folder (0700) and lock file (0600) if needed, once the state
    /// directory exists; the state file itself is written by the first request. Called before a
    /// run starts, so that a state opctl cannot keep stops it before anything is sent.
    ///
    /// - Throws: ``CLIError/message(_:)`` naming the folder and the reason: opctl refuses to run
    ///   rather than let the simulator act on what a rerun would not know.
    func prepare() throws {
        do throws(SimulatorStateStoreError) {
            try lockDescriptor.withLock { (descriptor) throws(SimulatorStateStoreError) in
                if descriptor == nil { descriptor = try openLock() }
            }
        } catch {
            throw CLIError.message(
                "cannot keep the simulated backend's state: \(error) (a rerun must meet the backend "
                    + "this run leaves; move it away, or use --backend http://…)")
        }
    }

    /// Runs `transaction` under the lock with the file's bytes, and replaces the file with what
    /// it returns; see ``SimulatorStateStore``.
    func withExclusiveAccess(
        _ transaction: (Result<Data?, SimulatorStateStoreError>) -> Data?
    ) throws(SimulatorStateStoreError) {
        try lockDescriptor.withLock { (descriptor) throws(SimulatorStateStoreError) in
            let lock: Int32
            if let opened = descriptor {
                lock = opened
            } else {
                lock = try openLock()
                descriptor = lock
            }
            while flock(lock, LOCK_EX) != 0 {
                guard errno == EINTR else { throw failure("cannot lock", errno, path: directory.path) }
            }
            defer { _ = flock(lock, LOCK_UN) }
            guard let bytes = transaction(read()) else { return }
            do {
                try OwnerOnlyFile.write(bytes, to: file)
            } catch {
                throw SimulatorStateStoreError("\(error)")
            }
        }
    }

    private func openLock() throws(SimulatorStateStoreError) -> Int32 {
        if mkdir(directory.path, 0o700) != 0, errno != EEXIST {
            throw failure("cannot create", errno, path: directory.path)
        }
        var status = stat()
        guard lstat(directory.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw SimulatorStateStoreError("\(directory.path) is not a directory")
        }
        // One made by hand may be open to others; the state holds pending codes.
        if status.st_uid == getuid(), status.st_mode & 0o077 != 0 { _ = chmod(directory.path, 0o700) }
        let path = directory.appendingPathComponent("state.lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot open", errno, path: path) }
        return descriptor
    }

    /// The file's bytes; `nil` when there is none yet.
    private func read() -> Result<Data?, SimulatorStateStoreError> {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            return errno == ENOENT ? .success(nil) : .failure(failure("cannot open", errno))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(failure("cannot read", errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .failure(SimulatorStateStoreError("\(file.path) is not a regular file"))
        }
        do {
            let bytes = try handle.read(upToCount: Self.largestState + 1) ?? Data()
            guard bytes.count <= Self.largestState else {
                return .failure(SimulatorStateStoreError("\(file.path) is larger than \(Self.largestState >> 20) MiB"))
            }
            return .success(bytes)
        } catch {
            return .failure(SimulatorStateStoreError("cannot read \(file.path): \(error.localizedDescription)"))
        }
    }

    private func failure(_ doing: String, _ code: Int32, path: String? = nil) -> SimulatorStateStoreError {
        SimulatorStateStoreError("\(doing) \(path ?? file.path): \(String(cString: strerror(code)))")
    }
}
