import Foundation

/// A JSON value written again in one form for every equal value: what a read journal keeps of
/// a step's value (``RecordedValue/json(_:)``) and what a resumed run compares the value it
/// would launch with against (``JournalReplay/repeatsRecordedRequest(at:input:)``).
///
/// Both sides are made in one form (a journal line's values and the value a resumed run would
/// launch with, as they are decoded: ``Decoded``), so they agree byte for byte whenever the
/// values are equal: object keys in the order of their UTF-8 bytes, numbers in Swift's shortest
/// form that reads back the same (an integral number without a fraction, so `1.0` and `1` are
/// one value, as in JSON), strings escaped only where JSON requires it. It never reaches a file:
/// the journal writes its own bytes, and this form is rebuilt on every read (why not
/// `JSONSerialization`: Docs/Benchmarks.md, "The explorer, whole command").
enum ComparableJSON {
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

    /// A JSON value written in comparable form as it is decoded, so that a journal line's
    /// `JSONDecoder` pass reads the step values it carries too and the line is parsed once
    /// (Docs/Benchmarks.md, "A journal parsed once").
    ///
    /// It writes what the form made from `JSONSerialization`'s tree wrote before lines were parsed
    /// once (`ComparableJSONDecodedTests` keeps that writer), with two exceptions, numbers
    /// `JSONEncoder` does not write as such: an integer of 2^53 or more written with a fraction or
    /// an exponent (`1e16`) is written as an integer, where the tree form keeps the exponent; an
    /// integer written in digits beyond `UInt64` that a `Double` holds exactly in its shortest form
    /// takes that form (`1e+23`), where the tree form keeps the digits. The journal's readers and
    /// ``JournalReplay`` both make their values here, so equal values still compare equal.
    struct Decoded: Decodable {
        let bytes: [UInt8]

        /// Reads any JSON value.
        ///
        /// - Throws: `DecodingError` for a number that is not finite as a `Double`.
        init(from decoder: any Decoder) throws {
            var bytes: [UInt8] = []
            try Self.write(decoder, into: &bytes)
            self.bytes = bytes
        }

        /// The comparable JSON of `json`, a whole JSON text (fragments allowed); `nil` when it
        /// is not JSON.
        static func data(_ json: Data) -> Data? {
            (try? JSONDecoder().decode(Decoded.self, from: json)).map { Data($0.bytes) }
        }

        private static func write(_ decoder: any Decoder, into bytes: inout [UInt8]) throws {
            // `Decoder` cannot say which kind of value it holds: the kinds are tried, the
            // commonest leaf first.
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                bytes += Array("null".utf8)
            } else if let string = try? single.decode(String.self) {
                ComparableJSON.writeString(string, into: &bytes)
            } else if let object = try? decoder.container(keyedBy: AnyKey.self) {
                try writeObject(object, into: &bytes)
            } else if var array = try? decoder.unkeyedContainer() {
                bytes.append(UInt8(ascii: "["))
                var first = true
                while !array.isAtEnd {
                    if !first { bytes.append(UInt8(ascii: ",")) }
                    first = false
                    bytes += try array.decode(Decoded.self).bytes
                }
                bytes.append(UInt8(ascii: "]"))
            } else if let bool = try? single.decode(Bool.self) {
                bytes += Array((bool ? "true" : "false").utf8)
            } else {
                try writeNumber(single, into: &bytes)
            }
        }

        private static func writeObject(
            _ object: KeyedDecodingContainer<AnyKey>, into bytes: inout [UInt8]
        ) throws {
            bytes.append(UInt8(ascii: "{"))
            let keys = object.allKeys.sorted { $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8) }
            for (offset, key) in keys.enumerated() {
                if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                ComparableJSON.writeString(key.stringValue, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                bytes += try object.decode(Decoded.self, forKey: key).bytes
            }
            bytes.append(UInt8(ascii: "}"))
        }

        /// A number as the tree form wrote the one `JSONSerialization` makes:
        /// integers as integers, a number a `Double` holds exactly in Swift's shortest form (an
        /// integral one below 2^53 without a fraction), any other as its decimal digits.
        private static func writeNumber(_ single: any SingleValueDecodingContainer, into bytes: inout [UInt8]) throws {
            if let integer = try? single.decode(Int64.self) {
                bytes += Array(String(integer).utf8)
            } else if let integer = try? single.decode(UInt64.self) {
                bytes += Array(String(integer).utf8)
            } else {
                let double = try single.decode(Double.self)
                guard double.isFinite else {
                    throw DecodingError.dataCorruptedError(in: single, debugDescription: "not a finite number")
                }
                if let decimal = try? single.decode(Decimal.self), Decimal(double) != decimal {
                    bytes += Array(decimal.description.utf8)
                } else if double == double.rounded(), abs(double) < 9.007_199_254_740_992e15 {
                    bytes += Array(String(Int64(double)).utf8)
                } else {
                    bytes += Array(String(double).utf8)
                }
            }
        }
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }
}
