/// A guard a case's figure is checked against (Docs/Benchmarks.md says why each is where it is).
enum BenchTarget: Sendable, Equatable {
    /// The case costs at most this many times its reference.
    case ratioAtMost(Double)
    /// The case costs at least this many times its reference (the reference is the faster one).
    case ratioAtLeast(Double)
    /// The case costs at most this many nanoseconds more than its reference.
    case overheadAtMost(nanoseconds: Double)
    /// The case costs at most this many nanoseconds per operation.
    case atMost(nanoseconds: Double)
    /// The case's resident-size growth stays below this many bytes.
    case bytesBelow(Int)

    /// The target as the report prints it: `≤ 1.5×`, `≤ +300 ns`, `< 1 MB`.
    var label: String {
        switch self {
        case .ratioAtMost(let ratio): "≤ \(BenchFormat.ratio(ratio))×"
        case .ratioAtLeast(let ratio): "≥ \(BenchFormat.ratio(ratio))×"
        case .overheadAtMost(let nanoseconds): "≤ +\(BenchFormat.duration(nanoseconds))"
        case .atMost(let nanoseconds): "≤ \(BenchFormat.duration(nanoseconds))"
        case .bytesBelow(let bytes): "< \(BenchFormat.bytes(bytes))"
        }
    }

    /// Whether `figure` meets the target; `nil` when the reference it needs was not measured.
    ///
    /// - Parameters:
    ///   - figure: The case's nanoseconds per operation, or bytes for a memory case.
    ///   - ratio: The case's ratio to its reference (the median of per-round ratios).
    ///   - overhead: The case's difference from its reference in nanoseconds (per-round median).
    func isMet(by figure: Double, ratio: Double?, overhead: Double?) -> Bool? {
        switch self {
        case .ratioAtMost(let limit):
            guard let ratio else { return nil }
            return ratio <= limit
        case .ratioAtLeast(let limit):
            guard let ratio else { return nil }
            return ratio >= limit
        case .overheadAtMost(let nanoseconds):
            guard let overhead else { return nil }
            return overhead <= nanoseconds
        case .atMost(let nanoseconds):
            return figure <= nanoseconds
        case .bytesBelow(let bytes):
            return figure < Double(bytes)
        }
    }
}
