import Foundation
import Operations

/// A clock tests move by hand, so expiry, resend intervals and locks need no waiting.
final class TestClock: Sendable {
    private let current: LockedState<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = LockedState(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var function: @Sendable () -> Date { { self.now } }
}
