import Foundation
import Testing

@testable import OperationsJournal

/// The comparable form a journal line's one `JSONDecoder` pass makes of a step value is the
/// form the `JSONSerialization` tree gave before lines were parsed once: values recorded by
/// older builds compare as they did.
@Suite struct ComparableJSONDecodedTests {
    static let values = [
        "null", "true", "false", "0", "-0", "1", "1.0", "-0.0", "1.5", "0.1", "1e3", "1E+2", "-1.25e-3",
        "9007199254740993", "12345678901234567890", "18446744073709551615", "-9223372036854775808",
        "3.141592653589793238462643", "0.30000000000000004", "123456789012345678901234567890.5", "1e-400",
        #""plain""#, #""quote \" back \\ slash \n\t\r \u0001 é \ud83d\ude00""#, "[]", "{}", "[1,[2,[3]],{}]",
        #"{"b":1,"a":{"é":null,"e":[true,"x"]},"A":-2.5}"#, #"{"":{"":""}}"#,
    ]

    @Test(arguments: values) func aValueReadsAsTheTreeFormReadsIt(_ text: String) throws {
        let json = Data(text.utf8)
        let tree = try JSONSerialization.jsonObject(with: json, options: .fragmentsAllowed)
        let expected = try TreeForm.data(tree)
        let decoded = try #require(ComparableJSON.Decoded.data(json))
        #expect(String(decoding: decoded, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test func aNumberNoDoubleHoldsIsNotAValue() {
        #expect(ComparableJSON.Decoded.data(Data("1e400".utf8)) == nil)
        #expect(ComparableJSON.Decoded.data(Data("[1e400]".utf8)) == nil)
    }

    /// The comparable form as it was made from `JSONSerialization`'s tree before lines were
    /// parsed once: what values recorded by older builds were compared in.
    private enum TreeForm {
        struct NotJSON: Error {}

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
                ComparableJSON.writeString(string, into: &bytes)
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
                ComparableJSON.writeString(key, into: &bytes)
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
    }
}
