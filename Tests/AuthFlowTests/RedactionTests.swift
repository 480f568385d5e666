import AuthFlow
import Foundation
import Operations
import Testing

struct RedactionTests {
    static let clearToken = "sim1.eyJzdWIiOiIrNzk5OTEyMzQ1NjcifQ.c2lnbmF0dXJla1f3"
    static let clearCode = "834271"

    /// Every way a value can end up in a log, a trace or a terminal.
    static func printedForms(of value: some Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [
            "\(value)", String(describing: value), String(reflecting: value), dumped,
            "\([value])", "\(Optional(value) as Any)",
        ]
    }

    @Test func phoneTokenIsRedactedEverywhere() {
        let token = PhoneToken(Self.clearToken)
        #expect(token.redacted == "sim…a1f3")
        for form in Self.printedForms(of: token) {
            #expect(!form.contains(Self.clearToken), "\(form)")
            #expect(!form.contains("eyJ"), "\(form)")
        }
    }

    @Test func authTokenIsRedactedEverywhere() {
        let token = AuthToken(Self.clearToken, expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        #expect("\(token)" == "sim…a1f3")
        for form in Self.printedForms(of: token) {
            #expect(!form.contains("eyJ"), "\(form)")
        }
    }

    @Test func smsCodeIsRedactedEverywhere() throws {
        let code = try SMSCode(Self.clearCode, length: 6)
        #expect("\(code)" == "••••••")
        for form in Self.printedForms(of: code) {
            #expect(!form.contains(Self.clearCode), "\(form)")
        }
    }

    @Test func valuesHoldingSecretsAreRedactedToo() throws {
        let session = PhoneSession(phoneToken: PhoneToken(Self.clearToken), termsRequired: true, codeLength: 6)
        let acceptance = TermsAcceptance(
            acceptedVersion: "2", phoneToken: PhoneToken(Self.clearToken),
            authToken: AuthToken(Self.clearToken, expiresAt: Date()))
        for form in Self.printedForms(of: session) + Self.printedForms(of: acceptance) {
            #expect(!form.contains("eyJ"), "\(form)")
        }
    }

    @Test func shortTokensShowNothing() {
        let redacted = PhoneToken("abc123").redacted
        #expect(redacted == Redaction.token("abc123"), "the engine's one redaction rule")
        #expect(!redacted.contains("abc") && !redacted.contains("123"))
    }

    @Test func encodedErrorsCarryNoSecrets() throws {
        let errors: [AuthError] = [
            .invalidCode(attemptsLeft: 2), .malformedResponse(reason: "missing field “accessToken”"),
            .unauthorized, .locked(retryAfter: 60),
        ]
        let json = String(decoding: try JSONEncoder().encode(errors), as: UTF8.self)
        #expect(!json.contains(Self.clearCode))
        #expect(!json.contains("eyJ"))
        #expect(try JSONDecoder().decode([AuthError].self, from: Data(json.utf8)) == errors)
    }
}
