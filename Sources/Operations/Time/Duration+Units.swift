package import Dispatch

/// `Duration` in the units the package talks to other APIs in — one place for the arithmetic.
extension Duration {
    /// The duration for Dispatch deadlines, to the nanosecond.
    package var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(clamping: wholeNanoseconds))
    }

    /// The duration in seconds, for Foundation's `TimeInterval` and for arithmetic.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    package var inMilliseconds: Double { inSeconds * 1_000 }

    private var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
