import Foundation

/// A JSON value written again in one form for every equal value: what a read journal keeps of
/// a step's value (``RecordedValue/json(_:)``) and what a resumed run compares the value it
/// would launch with against (``JournalReplay/repeatsRecordedRequest(at:input:)``).
///
/// Both sides are made in one form (a journal line's values and the value a resumed run would
/// launch with as they are decoded, ``Decoded``; a value rebuilt around its confidential fields
/// from a tree), so they agree byte for byte whenever the values are equal: object keys in the
/// order of their UTF-8 bytes, numbers in Swift's shortest form that reads back the same (an
/// integral number without a fraction, so `1.0` and `1` are one value, as in JSON), strings
/// escaped only where JSON requires it. It never reaches a file: the journal writes its own
/// bytes, and this form is rebuilt on every read (why not `JSONSerialization`:
/// Docs/Benchmarks.md, "The explorer, whole command").
enum ComparableJSON {
    /// A tree that is not JSON as `JSONSerialization` parses it.
    struct NotJSON: Error {}

    /// The tree's bytes.
    ///
    /// - Parameter tree: What `JSONSerialization.jsonObject` returned (fragments allowed).
    /// - Returns: The JSON.
    /// - Throws: ``NotJSON`` for anything else, or a number that is not finite.
    static func data(_ tree: Any) throws(NotJSON) -> Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        try write(tree, into: &bytes)
        return Data(bytes)
    }

    private static func write(_ value: Any, into bytes: inout [UInt8]) throws(NotJSON) {
        if let number = value as? NSNumber {
            try writeNumber(number, into: &bytes)
        } else if value is NSNull {
            bytes += Array("null".utf8)
        } else if let string = value as? String {
            writeString(string, into: &bytes)
        } else if let object = value as? [String: Any] {
            try writeObject(object, into: &bytes)
        } else if let array = value as? [Any] {
            try writeArray(array, into: &bytes)
        } else {
            throw NotJSON()
        }
    }

    private static func writeObject(_ object: [String: Any], into bytes: inout [UInt8]) throws(NotJSON) {
        bytes.append(UInt8(ascii: "{"))
        for (offset, key) in object.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            // The key comes from the same dictionary.
            if let member = object[key] { try write(member, into: &bytes) }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    private static func writeArray(_ array: [Any], into bytes: inout [UInt8]) throws(NotJSON) {
        bytes.append(UInt8(ascii: "["))
        for (offset, item) in array.enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(item, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private static func writeNumber(_ number: NSNumber, into bytes: inout [UInt8]) throws(NotJSON) {
        // `JSONSerialization` parses `true` and `false` as booleans of type `c`, integers as `i`,
        // `q` or `Q`, everything else as `d` (a decimal number when a double would lose digits).
        switch number.objCType.pointee {
        case CChar(UInt8(ascii: "c")), CChar(UInt8(ascii: "B")):
            bytes += Array((number.boolValue ? "true" : "false").utf8)
        case CChar(UInt8(ascii: "Q")), CChar(UInt8(ascii: "L")), CChar(UInt8(ascii: "I")),
            CChar(UInt8(ascii: "S")), CChar(UInt8(ascii: "C")):
            bytes += Array(String(number.uint64Value).utf8)
        case CChar(UInt8(ascii: "d")), CChar(UInt8(ascii: "f")):
            if number is NSDecimalNumber {
                bytes += Array(number.description.utf8)
                return
            }
            let double = number.doubleValue
            guard double.isFinite else { throw NotJSON() }
            if double == double.rounded(), abs(double) < 9.007_199_254_740_992e15 {
                bytes += Array(String(Int64(double)).utf8)
            } else {
                bytes += Array(String(double).utf8)
            }
        default:
            bytes += Array(String(number.int64Value).utf8)
        }
    }

    static func writeString(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                bytes += Array("\\u00".utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
