public import Foundation
import Operations

/// Where a ``SimulatedBackend`` keeps what it remembers between requests (codes sent, attempts
/// left, locks, terms accepted, revoked sessions, answers kept per idempotency key), so that a
/// simulator in a later process — a rerun — meets the backend an earlier one left, as a client of
/// a long-running server does.
///
/// The simulator reads the state at the start of every request and stores it after each one that
/// changed it, inside one ``withExclusiveAccess(_:)``: a read-modify-write that no other
/// simulator over the same store interleaves with, so two processes never lose each other's
/// updates. The bytes are the simulator's own (a versioned JSON object, described in
/// Docs/Architecture.md, *The simulator's state*); a store keeps them as they are.
///
/// ## Contract
///
/// - `withExclusiveAccess` runs `transaction` exactly once, and while it runs, no other
///   transaction on a store of the same place runs, in this process or any other.
/// - `transaction` gets the bytes last stored (`nil` when nothing was stored yet), or the reason
///   they could not be read.
/// - When `transaction` returns bytes, they replace the stored ones whole: a later reader sees
///   the old bytes or the new, never a mix, even when the process is killed while storing.
///   When it returns `nil`, nothing is written.
/// - When the new bytes cannot be stored, `withExclusiveAccess` throws and the old bytes stand.
public protocol SimulatorStateStore: Sendable {
    /// Runs `transaction` with the stored bytes, excluding every other transaction on the same
    /// place until it returns, and stores what it returns.
    ///
    /// - Parameter transaction: Gets the stored bytes (`nil`: none yet) or why they could not be
    ///   read; returns the bytes to store, or `nil` to leave them.
    /// - Throws: ``SimulatorStateStoreError`` when the store cannot be locked or the new bytes
    ///   cannot be stored.
    func withExclusiveAccess(
        _ transaction: (Result<Data?, SimulatorStateStoreError>) -> Data?
    ) throws(SimulatorStateStoreError)
}

/// Why a ``SimulatorStateStore`` could not read or store the state, in words a person can act on
/// (the file and the system's reason); never the state itself.
public struct SimulatorStateStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason, such as `cannot write /home/me/.local/state/opctl/simulator/state.json: No
    /// space left on device`.
    public let description: String

    /// Creates an error.
    ///
    /// - Parameter description: The reason, naming the place and never a secret.
    public init(_ description: String) {
        self.description = description
    }
}

/// A ``SimulatorStateStore`` in memory: two simulators given the same instance behave as two
/// processes over one state file, which is how tests check what a rerun meets without starting
/// processes. Its transactions run one at a time.
public final class InMemorySimulatorStateStore: SimulatorStateStore {
    private let stored: LockedState<Data?>

    /// Creates a store.
    ///
    /// - Parameter bytes: What it holds at first; `nil` for nothing stored yet.
    public init(bytes: Data? = nil) {
        stored = LockedState(bytes)
    }

    /// What it holds now.
    public var bytes: Data? {
        stored.withLock { $0 }
    }

    /// Runs `transaction` under the store's lock; see ``SimulatorStateStore``.
    public func withExclusiveAccess(
        _ transaction: (Result<Data?, SimulatorStateStoreError>) -> Data?
    ) throws(SimulatorStateStoreError) {
        stored.withLock { bytes in
            if let replacement = transaction(.success(bytes)) { bytes = replacement }
        }
    }
}
