import Foundation
import Operations

/// One journal line as it is written: a JSON object whose members are appended in order, closed
/// by where it stands (``LinePosition``) and its checksum (``LineChecksum``).
///
/// The envelope's fields are strings, integers and booleans, written here; a value of the
/// caller's shape comes as JSON already made (``ValueJSON``, ``field(_:json:)``).
struct JournalLine {
    /// The line so far; complete, newline included, after ``end()``.
    private(set) var bytes: [UInt8] = []

    /// A line that starts as every event line does: its event and the wall-clock time.
    init(_ event: JournalFormat.Event) {
        self.init(capacity: 512)
        field("event", string: event.rawValue)
        field("at", int: ScenarioJournal.milliseconds())
    }

    /// A line that starts empty: the header, a mark; with room for `capacity` bytes at once,
    /// rather than growing field by field.
    init(capacity: Int = 128) {
        bytes.reserveCapacity(capacity)
        bytes.append(UInt8(ascii: "{"))
    }

    /// The scenario's shape, as the header and a `resumed` line record it, with `json` its encoding.
    mutating func field(shape: ScenarioShape, json: Data) {
        if let version = shape.version { field("scenarioVersion", int: version) }
        field("fingerprint", string: shape.fingerprint)
        field("shape", json: json)
    }

    mutating func field(_ key: String, string value: String) {
        name(key)
        Self.appendString(value, to: &bytes)
    }

    mutating func field(_ key: String, int value: Int) {
        name(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func field(_ key: String, bool value: Bool) {
        name(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// A value that is already JSON.
    mutating func field(_ key: String, json: some Sequence<UInt8>) {
        name(key)
        bytes.append(contentsOf: json)
    }

    /// A duration in milliseconds, to the microsecond.
    mutating func field(_ key: String, milliseconds duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        field(key, json: String(Double(microseconds) / 1000).utf8)
    }

    /// `[{"index":0,"name":"AuthScenario"},…]`, as ``StepAddress/Component`` reads back.
    mutating func field(_ key: String, address: StepAddress) {
        name(key)
        bytes.append(UInt8(ascii: "["))
        for (position, component) in address.path.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: #"{"index":\#(component.index),"name":"#.utf8)
            Self.appendString(component.name, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Closes the line with where it stands (``LinePosition``), its checksum and newline.
    ///
    /// - Returns: The line's checksum, which the next line names as the one before it.
    mutating func end(at position: LinePosition) -> UInt32 {
        position.append(to: &bytes)
        let sum = LineChecksum.adler32(bytes)
        LineChecksum.appendSuffix(sum, to: &bytes)
        return sum
    }

    /// `"key":`, after a comma unless it is the first; the journal's keys need no escaping.
    private mutating func name(_ key: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        bytes += key.utf8
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// A JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    static func appendString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copied whole, then looked through where they landed
        // (Docs/Benchmarks.md, "journal.fsync").
        let start = bytes.count
        bytes += text.utf8
        guard bytes[start...].contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
        else { return bytes.append(UInt8(ascii: "\"")) }
        bytes.removeSubrange(start...)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0..<0x20: bytes += Array(String(format: "\\u%04x", byte).utf8)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
