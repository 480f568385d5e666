/// A guard a case's figure is checked against (Docs/Benchmarks.md says why each is where it is).
enum BenchTarget: Sendable, Equatable {
    /// The case costs at most this many times its reference.
    case ratioAtMost(Double)
    /// The case costs at most this many nanoseconds per operation.
    case atMost(nanoseconds: Double)
    /// The case's resident-size growth stays below this many bytes.
    case bytesBelow(Int)

    /// The target as the report prints it: `≤ 1.5×`, `≤ 20.0 ms`, `< 1 MB`.
    var label: String {
        switch self {
        case .ratioAtMost(let ratio): "≤ \(BenchFormat.ratio(ratio))×"
        case .atMost(let nanoseconds): "≤ \(BenchFormat.duration(nanoseconds))"
        case .bytesBelow(let bytes): "< \(BenchFormat.bytes(bytes))"
        }
    }

    /// Whether `figure` meets the target; `nil` when the reference it needs was not measured.
    ///
    /// - Parameters:
    ///   - figure: The case's nanoseconds per operation, or bytes for a memory case.
    ///   - ratio: The case's ratio to its reference (the median of per-round ratios).
    func isMet(by figure: Double, ratio: Double?) -> Bool? {
        switch self {
        case .ratioAtMost(let limit): ratio.map { $0 <= limit }
        case .atMost(let nanoseconds): figure <= nanoseconds
        case .bytesBelow(let bytes): figure < Double(bytes)
        }
    }
}
