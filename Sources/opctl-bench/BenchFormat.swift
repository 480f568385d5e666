/// Number formatting shared by the table and the targets: fixed decimals, no locale.
enum BenchFormat {
    /// `x` rounded to `decimals` places, as text without exponent (`41.3`, `0.05`).
    static func fixed(_ x: Double, decimals: Int) -> String {
        guard x.isFinite else { return "\(x)" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(x) * scale).rounded()
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        let sign = x < 0 && scaled > 0 ? "-" : ""
        guard decimals > 0 else { return "\(sign)\(whole)" }
        let digits = String(fraction)
        return "\(sign)\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
    }

    /// A ratio: two decimals below 10, one below 100, none above (`1.07`, `12.5`, `118`).
    static func ratio(_ x: Double) -> String {
        var text = Substring(fixed(x, decimals: x < 10 ? 2 : x < 100 ? 1 : 0))
        if text.contains(".") {
            while text.last == "0" { text = text.dropLast() }
            if text.last == "." { text = text.dropLast() }
        }
        return String(text)
    }

    /// Nanoseconds in the unit that reads best: `46.2 ns`, `4.81 µs`, `31.0 ms`.
    static func duration(_ nanoseconds: Double) -> String {
        switch abs(nanoseconds) {
        case ..<1_000: "\(fixed(nanoseconds, decimals: 1)) ns"
        case ..<1_000_000: "\(fixed(nanoseconds / 1_000, decimals: 2)) µs"
        default: "\(fixed(nanoseconds / 1_000_000, decimals: 1)) ms"
        }
    }

    /// Bytes in the unit that reads best: `0 B`, `12.0 KB`, `1 MB` (decimal units).
    static func bytes(_ bytes: Int) -> String {
        switch bytes {
        case ..<1_000: "\(bytes) B"
        case ..<1_000_000: "\(fixed(Double(bytes) / 1_000, decimals: 1)) KB"
        default:
            (bytes % 1_000_000 == 0 ? "\(bytes / 1_000_000)" : fixed(Double(bytes) / 1_000_000, decimals: 2)) + " MB"
        }
    }
}
