public import Foundation

/// Where a ``Store`` keeps what it did — reservations, charges, confirmations, releases, polls
/// and the first answer per idempotency key — so that a store made in a later process (a rerun
/// of a killed checkout) meets the store an earlier one left, as a client of a real store does.
///
/// ## Contract
///
/// - `withExclusiveAccess` runs `transaction` exactly once, and while it runs no other
///   transaction over the same place runs, in this process or any other.
/// - `transaction` gets the bytes last kept, `nil` when there are none yet.
/// - Bytes it returns replace the kept ones whole: a later reader sees the old bytes or the new,
///   never a mix, even when the process is killed meanwhile. `nil` leaves them.
/// - When the new bytes cannot be kept, it throws and the old ones stand.
public protocol StoreStateKeeper: Sendable {
    /// Runs `transaction` with the kept bytes, excluding every other transaction on the same
    /// place until it returns, and keeps what it returns.
    ///
    /// - Parameter transaction: Gets the kept bytes (`nil`: none yet); returns the bytes to keep,
    ///   or `nil` to leave them.
    /// - Throws: When the place cannot be locked or the new bytes cannot be kept.
    func withExclusiveAccess(_ transaction: (Data?) -> Data?) throws
}
