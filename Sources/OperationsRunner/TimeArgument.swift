public import Foundation

/// A moment typed on the command line, as `--since` and `--older-than` take it: a duration
/// back from now (`90s`, `30m`, `2h`, `7d`, `2w`, or several, `1h30m`) or an ISO-8601 date
/// (`2025-01-31`, midnight UTC, or `2025-01-31T12:00:00Z`, with an offset or fractional
/// seconds too) — the form `runs` prints.
public enum TimeArgument {
    /// What the help says the value may be.
    public static let forms = "a duration (30m, 2h, 7d) or an ISO-8601 date (2025-01-31, 2025-01-31T12:00:00Z)"

    /// The moment `text`, the value of `option`, names; durations count back from `now`.
    ///
    /// - Throws: ``UsageError`` with a sentence saying which forms are accepted.
    public static func moment(_ text: String, option: String, command: String, now: Date) throws -> Date {
        if let seconds = duration(text) { return now.addingTimeInterval(-seconds) }
        if let date = date(text) { return date }
        throw UsageError("\(option) '\(ParsedArguments.clip(text))' is not \(forms)", command: command)
    }

    /// The seconds in a duration like `1h30m`; `nil` when `text` is not one.
    public static func duration(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400, "w": 604_800]
        var total: TimeInterval = 0
        var digits = ""
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let number = Int(digits), digits.count <= 9 {
                total += TimeInterval(number) * unit
                digits = ""
            } else {
                return nil
            }
        }
        return digits.isEmpty && !text.isEmpty ? total : nil
    }

    /// The date in an ISO-8601 text; `nil` when `text` is not one.
    public static func date(_ text: String) -> Date? {
        let styles: [Date.ISO8601FormatStyle] = [
            .iso8601, Date.ISO8601FormatStyle(includingFractionalSeconds: true),
            Date.ISO8601FormatStyle().year().month().day(),
        ]
        for style in styles {
            if let date = try? style.parse(text) { return date }
        }
        return nil
    }
}
