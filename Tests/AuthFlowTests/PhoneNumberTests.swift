import AuthFlow
import Foundation
import Testing

struct PhoneNumberTests {
    @Test(arguments: [
        ("+7 (999) 123-45-67", "+79991234567"),
        ("8 999 123 45 67", "+79991234567"),
        ("8(999)123-45-67", "+79991234567"),
        ("  +79991234567\n", "+79991234567"),
        ("0079991234567", "+79991234567"),
        ("+44 20 7946 0958", "+442079460958"),
        ("+1.415.555.0100", "+14155550100"),
        ("+12345678", "+12345678"),
        ("+123456789012345", "+123456789012345"),
    ])
    func parsesWhatPeopleType(input: String, e164: String) throws {
        #expect(try PhoneNumber(parsing: input).e164 == e164)
    }

    @Test(arguments: [
        ("", PhoneNumberError.empty),
        ("   \t", .empty),
        ("+7 999 abc 45 67", .containsLetters),
        ("+7 999 123 45 6Ж", .containsLetters),
        ("+7 999 123#45 67", .invalidCharacter("#")),
        ("7+9991234567", .invalidCharacter("+")),
        ("9991234567", .missingCountryCode),
        ("79991234567", .missingCountryCode),
        ("+0 999 123 45 67", .missingCountryCode),
        ("+7 999", .tooShort(digitCount: 4, minimum: 8)),
        ("8 999 123 45", .tooShort(digitCount: 9, minimum: 11)),
        ("+7 999 123 45 67 89 01 2", .tooLong(digitCount: 16, maximum: 15)),
        ("8 999 123 45 67 8", .tooLong(digitCount: 12, maximum: 11)),
    ])
    func rejectsWithTheRightReason(input: String, expected: PhoneNumberError) {
        #expect(throws: expected) { try PhoneNumber(parsing: input) }
    }

    @Test func requiresPlusWithoutConvention() {
        #expect(throws: PhoneNumberError.missingCountryCode) {
            try PhoneNumber(parsing: "8 999 123 45 67", convention: nil)
        }
    }

    @Test func tenKilobytesOfTextFailQuicklyWithAShortMessage() {
        let digits = String(repeating: "1", count: 10_240)
        #expect(throws: PhoneNumberError.tooLong(digitCount: 10_240, maximum: 15)) {
            try PhoneNumber(parsing: "+" + digits)
        }
        let prose = String(repeating: "lorem ipsum ", count: 1_000)
        #expect(throws: PhoneNumberError.containsLetters) { try PhoneNumber(parsing: prose) }
        let error = PhoneNumberError.tooLong(digitCount: 10_240, maximum: 15)
        #expect(error.description.count < 100)
    }

    @Test func everyErrorHasASentence() {
        let errors: [PhoneNumberError] = [
            .empty, .containsLetters, .invalidCharacter("#"), .missingCountryCode,
            .tooShort(digitCount: 4, minimum: 8), .tooLong(digitCount: 17, maximum: 15),
        ]
        for error in errors {
            #expect(error.description.hasSuffix("."), "\(error)")
        }
    }

    @Test func codableRoundTripAndRevalidation() throws {
        let phone = try PhoneNumber(parsing: "+7 999 123 45 67")
        let data = try JSONEncoder().encode([phone])
        #expect(String(decoding: data, as: UTF8.self) == #"["+79991234567"]"#)
        #expect(try JSONDecoder().decode([PhoneNumber].self, from: data) == [phone])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([PhoneNumber].self, from: Data(#"["call me"]"#.utf8))
        }
    }

    @Test func errorsRoundTripThroughJSON() throws {
        let errors: [PhoneNumberError] = [.invalidCharacter("#"), .tooShort(digitCount: 4, minimum: 8), .empty]
        let data = try JSONEncoder().encode(errors)
        #expect(try JSONDecoder().decode([PhoneNumberError].self, from: data) == errors)
    }
}
