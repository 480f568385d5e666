import Foundation

/// Appends JSON objects, one per line, to a byte buffer by hand.
///
/// The journal's envelope (event name, time, address, attempt) has a fixed shape, so writing it
/// directly is several times cheaper than a `JSONEncoder` round and keeps a buffered append
/// within its budget; only the step values, whose shape is the caller's, go through
/// `JSONEncoder`.
struct JSONLineWriter {
    /// Complete lines, ready to be written.
    var bytes: [UInt8] = []
    private var needsComma = false
    /// Where the line being written starts, for its checksum.
    private var lineStart = 0

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var isEmpty: Bool { bytes.isEmpty }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Overwrites the bytes gathered with zeros, so that a secret's clear form does not stay
    /// behind in a buffer that is kept for reuse.
    mutating func overwriteWithZeros() {
        for index in bytes.indices { bytes[index] = 0 }
    }

    mutating func beginLine() {
        lineStart = bytes.count
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Ends the line with its checksum (``LineChecksum``) as the last field.
    mutating func endLine() {
        let sum = bytes.withUnsafeBufferPointer { buffer in
            LineChecksum.adler32(UnsafeBufferPointer(rebasing: buffer[lineStart...]))
        }
        key(LineChecksum.key)
        bytes.append(UInt8(ascii: "\""))
        LineChecksum.appendHex(sum, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
    }

    mutating func field(_ key: StaticString, string value: String) {
        self.key(key)
        string(value)
    }

    mutating func field(_ key: StaticString, int value: Int) {
        self.key(key)
        integer(value)
    }

    mutating func field(_ key: StaticString, bool value: Bool) {
        self.key(key)
        append(value ? "true" : "false")
    }

    /// A value that is already JSON (from `JSONEncoder`).
    mutating func field(_ key: StaticString, json: Data) {
        self.key(key)
        // Through the raw buffer: one copy, where `Data`'s generic iteration goes byte by byte.
        json.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// A value that is already JSON (from ``JSONStreamEncoder``).
    mutating func field(_ key: StaticString, json: [UInt8]) {
        self.key(key)
        bytes.append(contentsOf: json)
    }

    /// A JSON literal such as `null`.
    mutating func field(_ key: StaticString, literal: StaticString) {
        self.key(key)
        append(literal)
    }

    /// A duration in milliseconds with microsecond precision, e.g. `12.345`.
    mutating func field(_ key: StaticString, milliseconds duration: Duration) {
        self.key(key)
        let (seconds, attoseconds) = duration.components
        let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        integer(Int(microseconds / 1000))
        bytes.append(UInt8(ascii: "."))
        let fraction = Int(microseconds % 1000)
        if fraction < 100 { bytes.append(UInt8(ascii: "0")) }
        if fraction < 10 { bytes.append(UInt8(ascii: "0")) }
        integer(fraction)
    }

    /// `[{"index":0,"name":"AuthScenario"},{"index":2,"name":"CodeOp"}]`, the shape of
    /// ``StepAddress/Component``'s `Codable` form.
    mutating func field(_ key: StaticString, address: StepAddress) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (position, component) in address.path.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            append("{\"index\":")
            integer(component.index)
            append(",\"name\":")
            string(component.name)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func field(_ key: StaticString, strings: [String]) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (position, value) in strings.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func field(_ key: StaticString, ints: [Int]) {
        self.key(key)
        bytes.append(UInt8(ascii: "["))
        for (position, value) in ints.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            integer(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Opens a nested object as the value of `key`; close it with ``endObject()``.
    mutating func beginObject(_ key: StaticString) {
        self.key(key)
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    // MARK: - Internals

    mutating func key(_ key: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// The decimal digits of `value`, as `String(value)` spells them, without making the string.
    mutating func integer(_ value: some FixedWidthInteger) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Every integer `Codable` knows has at most 64 bits, so its magnitude fits.
        let magnitude = UInt64(value.magnitude)
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor &*= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// A JSON string literal; escapes quotes, backslashes and control characters only, so the
    /// line stays valid UTF-8 and readable.
    mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            guard utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                bytes.append(contentsOf: utf8)
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                case 0..<0x20:
                    append("\\u00")
                    let digits: StaticString = "0123456789abcdef"
                    digits.withUTF8Buffer { hex in
                        bytes.append(hex[Int(byte >> 4)])
                        bytes.append(hex[Int(byte & 0xF)])
                    }
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
