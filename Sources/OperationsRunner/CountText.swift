/// Counts in sentences: `1 run`, `1,980 older runs`, the same whatever the locale, so that
/// output and tests do not depend on the machine's settings.
public enum CountText {
    /// `1980` as `1,980`.
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return (number < 0 ? "-" : "") + text
    }

    /// `count` runs, with `adjective` before the noun: `1 failed run`, `12 runs`.
    public static func runs(_ count: Int, _ adjective: String = "") -> String {
        "\(grouped(count)) \(adjective.isEmpty ? "" : adjective + " ")\(count == 1 ? "run" : "runs")"
    }
}
