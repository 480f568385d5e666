public import Foundation
import Operations

/// The identifier of one journaled run: unique, sortable by creation time, safe as a file name.
///
/// An id is the UTC creation time to the millisecond followed by 32 random bits,
/// `20250101-120000-000-1a2b3c4d`: ids sort in the order runs were created (ties within a
/// millisecond in any order), two processes creating runs at once do not collide in practice, and
/// the run store's exclusive create turns the remaining chance into a retry. The alphabet is
/// limited to digits, letters and `-`, so an id typed by a user can never name a path outside
/// the store.
public struct RunID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The id's text.
    public let rawValue: String

    /// Validates a run id typed by a user or read from a file name.
    ///
    /// - Throws: ``JournalError/invalidRunID(_:)`` when `text` is empty, longer than 64
    ///   characters or contains anything but ASCII letters, digits and `-`.
    public init(validating text: String) throws(JournalError) {
        guard Self.isValid(text) else { throw .invalidRunID(text) }
        self.rawValue = text
    }

    /// Makes a new id from the current time and random bits.
    ///
    /// - Parameters:
    ///   - date: The creation time; now by default.
    ///   - random: 32 random bits; the system generator by default.
    public static func make(
        at date: Date = Date(), random: UInt32 = UInt32.random(in: .min ... .max)
    ) -> RunID {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, millisecondOfDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let seconds = millisecondOfDay / 1000
        let text =
            pad(year, 4) + pad(month, 2) + pad(day, 2) + "-" + pad(seconds / 3600, 2) + pad(seconds / 60 % 60, 2)
            + pad(seconds % 60, 2) + "-" + pad(millisecondOfDay % 1000, 3) + "-" + pad(random, 8, radix: 16)
        return RunID(rawValue: text)
    }

    /// A sentence for people: logs, CLI messages, test failures.
    public var description: String { rawValue }

    /// Run ids order by the time they were made.
    public static func < (lhs: RunID, rhs: RunID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Decodes the id from a single JSON string, validating it.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard Self.isValid(text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not a run id"))
        }
        self.rawValue = text
    }

    /// Encodes the id as a single JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    // MARK: - Internals

    private init(rawValue: String) {
        self.rawValue = rawValue
    }

    static func isValid(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "-")
            }
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int, radix: Int = 10) -> String {
        let digits = String(value, radix: radix)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm), so
    /// making an id needs no calendar or formatter object.
    private static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
