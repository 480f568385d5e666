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
        let expected = try ComparableJSON.data(tree)
        let decoded = try #require(ComparableJSON.Decoded.data(json))
        #expect(String(decoding: decoded, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test func aNumberNoDoubleHoldsIsNotAValue() {
        #expect(ComparableJSON.Decoded.data(Data("1e400".utf8)) == nil)
        #expect(ComparableJSON.Decoded.data(Data("[1e400]".utf8)) == nil)
    }
}
