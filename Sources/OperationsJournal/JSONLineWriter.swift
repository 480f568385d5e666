import Foundation
import Operations

/// Appends JSON objects, one per line, to a byte buffer by hand.
///
/// The journal's envelope (event name, time, address, attempt) has a fixed shape, so writing it
/// directly is several times cheaper than a `JSONEncoder` round and keeps a buffered append
/// within its budget; only the step values, whose shape is the caller's, go through
/// `JSONEncoder`.
///
/// Its bytes live in memory it allocates itself, written straight through a pointer: over an
/// array, each of a line's forty-odd writes checked that the array was not shared first, and
/// those checks were a tenth of a buffered append. The price is that a copy shares the buffer
/// until one of the two grows it: a writer is used in one place (under the journal's lock, or
/// locally) and never copied to be written to.
struct JSONLineWriter {
    /// Frees the buffer when the last writer holding it is gone.
    private final class Allocation {
        let base: UnsafeMutablePointer<UInt8>

        init(capacity: Int) {
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deallocate()
        }
    }

    /// The buffer: ``count`` bytes written, then room that later writes fill.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var allocation: Allocation
    /// How many bytes have been written.
    private(set) var count = 0
    private var needsComma = false
    /// Where the line being written starts, for its checksum.
    private var lineStart = 0

    init(capacity: Int = 0) {
        self.capacity = max(capacity, 64)
        allocation = Allocation(capacity: self.capacity)
        base = allocation.base
    }

    /// Complete lines, ready to be written (a copy).
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    var isEmpty: Bool { count == 0 }

    /// Lends the bytes written, without copying them.
    func withBytes<Value>(_ body: (UnsafeRawBufferPointer) -> Value) -> Value {
        body(UnsafeRawBufferPointer(start: base, count: count))
    }

    mutating func removeAll() {
        count = 0
    }

    /// Overwrites the bytes gathered with zeros, so that a secret's clear form does not stay
    /// behind in a buffer that is kept for reuse.
    mutating func overwriteWithZeros() {
        base.update(repeating: 0, count: count)
    }

    mutating func beginLine() {
        lineStart = count
        byte(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Ends the line with its checksum (``LineChecksum``) as the last field.
    mutating func endLine() {
        let start = lineStart
        let end = count
        let sum = LineChecksum.adler32(UnsafeBufferPointer(start: base + start, count: end - start))
        key(LineChecksum.key)
        // `"0a1b2c3d"}` and the newline.
        write(12) { target in
            target[0] = UInt8(ascii: "\"")
            for digit in 0..<8 {
                target[1 &+ digit] = LineChecksum.hexDigit(sum >> UInt32(truncatingIfNeeded: 28 &- 4 &* digit))
            }
            target[9] = UInt8(ascii: "\"")
            target[10] = UInt8(ascii: "}")
            target[11] = UInt8(ascii: "\n")
        }
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
        json.withUnsafeBytes { write($0) }
    }

    /// A value that is already JSON (from ``JSONStreamEncoder``).
    mutating func field(_ key: StaticString, json: JSONLineWriter) {
        self.key(key)
        json.withBytes { write($0) }
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
        byte(UInt8(ascii: "."))
        let fraction = Int(microseconds % 1000)
        if fraction < 100 { byte(UInt8(ascii: "0")) }
        if fraction < 10 { byte(UInt8(ascii: "0")) }
        integer(fraction)
    }

    /// `[{"index":0,"name":"AuthScenario"},{"index":2,"name":"CodeOp"}]`, the shape of
    /// ``StepAddress/Component``'s `Codable` form.
    mutating func field(_ key: StaticString, address: StepAddress) {
        self.key(key)
        byte(UInt8(ascii: "["))
        for (position, component) in address.path.enumerated() {
            if position > 0 { byte(UInt8(ascii: ",")) }
            append("{\"index\":")
            integer(component.index)
            append(",\"name\":")
            string(component.name)
            byte(UInt8(ascii: "}"))
        }
        byte(UInt8(ascii: "]"))
    }

    mutating func field(_ key: StaticString, strings: [String]) {
        self.key(key)
        byte(UInt8(ascii: "["))
        for (position, value) in strings.enumerated() {
            if position > 0 { byte(UInt8(ascii: ",")) }
            string(value)
        }
        byte(UInt8(ascii: "]"))
    }

    mutating func field(_ key: StaticString, ints: [Int]) {
        self.key(key)
        byte(UInt8(ascii: "["))
        for (position, value) in ints.enumerated() {
            if position > 0 { byte(UInt8(ascii: ",")) }
            integer(value)
        }
        byte(UInt8(ascii: "]"))
    }

    /// Opens a nested object as the value of `key`; close it with ``endObject()``.
    mutating func beginObject(_ key: StaticString) {
        self.key(key)
        byte(UInt8(ascii: "{"))
        needsComma = false
    }

    mutating func endObject() {
        byte(UInt8(ascii: "}"))
        needsComma = true
    }

    // MARK: - Internals

    mutating func key(_ key: StaticString) {
        key.withUTF8Buffer { name in writeMember(name, separated: needsComma) }
        needsComma = true
    }

    /// `,"name":` (the comma only when `separated`) in one write, for a name that needs no
    /// escaping.
    private mutating func writeMember(_ name: UnsafeBufferPointer<UInt8>, separated: Bool) {
        // Wrapping arithmetic: a name's length is far from overflowing, and the checks were a
        // tenth of the write.
        let comma = separated ? 1 : 0
        let length = name.count
        write(comma &+ length &+ 3) { target in
            target[0] = UInt8(ascii: ",")
            let quote = target + comma
            quote[0] = UInt8(ascii: "\"")
            if let source = name.baseAddress { (quote + 1).initialize(from: source, count: length) }
            quote[length &+ 1] = UInt8(ascii: "\"")
            quote[length &+ 2] = UInt8(ascii: ":")
        }
    }

    /// Where ``member(_:separated:)`` wrote a name.
    struct WrittenName {
        /// The first byte of the name itself, after the comma and the quote.
        let start: Int
        /// How many bytes it took.
        let count: Int
        /// Whether those bytes are the name's own and all ASCII: then two such names are the
        /// same string exactly when their bytes are the same (an ASCII string has no other
        /// canonically equivalent spelling).
        let isPlainASCII: Bool
    }

    /// The name of an object's member, `"name":`, after a comma when `separated`; for
    /// ``JSONStreamEncoder``, whose names are the `Encodable` conformance's keys.
    mutating func member(_ name: String, separated: Bool) -> WrittenName {
        let written: WrittenName? = name.utf8.withContiguousStorageIfAvailable { utf8 in
            let unusual = Self.hasUnusualBytes(utf8)
            if unusual && utf8.contains(where: Self.needsEscape) { return escapedMember(name, separated: separated) }
            let start = count &+ (separated ? 2 : 1)
            writeMember(utf8, separated: separated)
            return WrittenName(start: start, count: utf8.count, isPlainASCII: !unusual)
        }
        return written ?? escapedMember(name, separated: separated)
    }

    /// Whether the `length` bytes at `first` and at `second` are the same.
    func bytesEqual(at first: Int, _ second: Int, length: Int) -> Bool {
        memcmp(base + first, base + second, length) == 0
    }

    private mutating func escapedMember(_ name: String, separated: Bool) -> WrittenName {
        if separated { byte(UInt8(ascii: ",")) }
        let start = count &+ 1
        string(name)
        byte(UInt8(ascii: ":"))
        return WrittenName(start: start, count: count &- start &- 2, isPlainASCII: false)
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { write(UnsafeRawBufferPointer($0)) }
    }

    mutating func byte(_ value: UInt8) {
        write(1) { $0[0] = value }
    }

    /// The decimal digits of `value`, as `String(value)` spells them, without making the string.
    mutating func integer(_ value: Int) {
        decimal(negative: value < 0, magnitude: UInt64(value.magnitude))
    }

    /// The decimal digits of `value`; every signed integer `Codable` knows fits.
    mutating func integer(_ value: Int64) {
        decimal(negative: value < 0, magnitude: value.magnitude)
    }

    /// The decimal digits of `value`; every unsigned integer `Codable` knows fits.
    mutating func integer(_ value: UInt64) {
        decimal(negative: false, magnitude: value)
    }

    // Not generic over the integer type: called from the encoder's containers, themselves
    // generic over their keys, a generic one went through the integer protocols' witnesses
    // for every digit.
    private mutating func decimal(negative: Bool, magnitude: UInt64) {
        if !negative && magnitude < 10 { return byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude)) }
        // Two digits a division by 100, written backwards into the stack, then copied in one
        // write: a journal line's millisecond time has thirteen digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            var rest = magnitude
            while rest >= 100 {
                let pair = rest % 100
                rest /= 100
                start &-= 2
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair / 10)
                digits[start &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: pair % 10)
            }
            if rest >= 10 {
                start &-= 2
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / 10)
                digits[start &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            } else {
                start &-= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
            }
            let sign = negative ? 1 : 0
            let length = 20 &- start
            write(sign &+ length) { target in
                target[0] = UInt8(ascii: "-")
                (target + sign).initialize(from: digits.baseAddress! + start, count: length)
            }
        }
    }

    /// A JSON string literal; escapes quotes, backslashes and control characters only, so the
    /// line stays valid UTF-8 and readable.
    mutating func string(_ value: String) {
        // A native string lends its bytes without the copy `withUTF8` makes of a `var`.
        let written: Void? = value.utf8.withContiguousStorageIfAvailable { string(utf8: $0) }
        if written == nil {
            var value = value
            value.withUTF8 { string(utf8: $0) }
        }
    }

    /// Whether `utf8` has a byte to escape or beyond ASCII: one pass without a branch a byte
    /// (a byte below 0x20 or from 0x80 up is 0x60 or more once 0x20 is taken off, wrapping).
    private static func hasUnusualBytes(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        var found: UInt8 = 0
        for byte in utf8 {
            found |= (byte &- 0x20 >= 0x60 ? 1 : 0) | (byte == 0x22 ? 1 : 0) | (byte == 0x5C ? 1 : 0)
        }
        return found != 0
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func string(utf8: UnsafeBufferPointer<UInt8>) {
        guard utf8.contains(where: Self.needsEscape) else {
            // The quotes and the bytes in one write.
            let length = utf8.count
            return write(length &+ 2) { target in
                target[0] = UInt8(ascii: "\"")
                if let source = utf8.baseAddress { (target + 1).initialize(from: source, count: length) }
                target[length &+ 1] = UInt8(ascii: "\"")
            }
        }
        byte(UInt8(ascii: "\""))
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
                    self.byte(hex[Int(byte >> 4)])
                    self.byte(hex[Int(byte & 0xF)])
                }
            default: self.byte(byte)
            }
        }
        self.byte(UInt8(ascii: "\""))
    }

    /// Appends bytes as they are.
    mutating func write(_ source: UnsafeRawBufferPointer) {
        write(source.count) { target in
            if let base = source.baseAddress {
                UnsafeMutableRawPointer(target).copyMemory(from: base, byteCount: source.count)
            }
        }
    }

    /// Makes room for `length` more bytes and lets `body` write them, from the pointer it gets.
    private mutating func write(_ length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        // Wrapping: the count is bounded by memory the buffer holds, far from overflowing.
        let start = count
        let end = start &+ length
        if end > capacity { grow(toHold: end) }
        body(base + start)
        count = end
    }

    /// Doubles the buffer, as an array grows, until `needed` bytes fit; out of line, since a
    /// journal's buffer soon has the room it needs.
    @inline(never)
    private mutating func grow(toHold needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = Allocation(capacity: newCapacity)
        grown.base.initialize(from: base, count: count)
        // What the old buffer held may be a secret's clear form (see ``overwriteWithZeros()``).
        base.update(repeating: 0, count: count)
        allocation = grown
        base = grown.base
        capacity = newCapacity
    }
}
