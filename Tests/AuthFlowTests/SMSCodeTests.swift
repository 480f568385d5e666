import AuthFlow
import Foundation
import Testing

struct SMSCodeTests {
    @Test(arguments: [("123456", "123456"), ("123 456", "123456"), (" 12-34-56 ", "123456")])
    func acceptsDigitsOfTheAnnouncedLength(input: String, digits: String) throws {
        #expect(try SMSCode(input, length: 6).revealed == digits)
    }

    @Test(arguments: [
        ("", SMSCodeError.empty),
        ("   ", .empty),
        ("12345a", .notDigits),
        ("１２３４５６", .notDigits),
        ("12345", .wrongLength(expected: 6)),
        ("1234567", .wrongLength(expected: 6)),
        (String(repeating: "1", count: 10_240), .wrongLength(expected: 6)),
    ])
    func rejects(input: String, expected: SMSCodeError) {
        #expect(throws: expected) { try SMSCode(input, length: 6) }
    }

    @Test func lengthComesFromTheBackend() throws {
        #expect(try SMSCode("1234", length: 4).revealed == "1234")
        #expect(throws: SMSCodeError.wrongLength(expected: 4)) { try SMSCode("123456", length: 4) }
    }

    @Test func decodingRejectsNonDigits() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([SMSCode].self, from: Data(#"["12a4"]"#.utf8))
        }
    }
}
