import AuthFlow
import Foundation

/// The simulator's self-validating tokens: `sim1.<claims>.<signature>`, where claims are base64url
/// JSON and the signature is HMAC-SHA256 over `sim1.<claims>` with the configured key.
///
/// Everything the backend needs to accept a token is inside it, so a simulator started in a later
/// process (a rerun) accepts a token an earlier one issued, and no one can change the phone, kind
/// or expiry without the key.
struct SimulatorToken {
    /// What a token says.
    struct Claims: Codable, Equatable {
        enum Kind: String, Codable {
            case phone, access
        }
        /// The phone number in E.164.
        var sub: String
        var kind: Kind
        /// Expiry, in whole seconds since 1970.
        var exp: Int
        /// The sign-in attempt (phone tokens) or session (access tokens) this token belongs to.
        var jti: String
        /// The terms version accepted, if any.
        var terms: String?
        /// A phone token issued by the session endpoint for re-accepting changed terms.
        var reaccept: Bool?
    }

    /// Why a token was refused; the message goes into the 401 body.
    enum Rejection: Error, Equatable {
        case malformed, badSignature, expired, wrongKind

        var message: String {
            switch self {
            case .malformed: "The bearer token is not a token this server issued."
            case .badSignature: "The bearer token's signature is invalid."
            case .expired: "The bearer token has expired."
            case .wrongKind: "This endpoint needs a different kind of token."
            }
        }
    }

    private static let prefix = "sim1"

    static func sign(_ claims: Claims, key: [UInt8]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        // Claims are plain strings and integers; encoding them cannot fail.
        let json = (try? encoder.encode(claims)) ?? Data()
        let signed = prefix + "." + base64URL(json)
        let signature = HMACSHA256.authenticationCode(for: Array(signed.utf8), key: key)
        return signed + "." + base64URL(Data(signature))
    }

    static func verify(_ token: String, key: [UInt8], kind: Claims.Kind, now: Date) throws(Rejection) -> Claims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == prefix, let signature = data(base64URL: parts[2]) else {
            throw .malformed
        }
        let expected = HMACSHA256.authenticationCode(for: Array("\(parts[0]).\(parts[1])".utf8), key: key)
        guard HMACSHA256.constantTimeEquals(expected, Array(signature)) else { throw .badSignature }
        guard let json = data(base64URL: parts[1]), let claims = try? JSONDecoder().decode(Claims.self, from: json)
        else {
            throw .malformed
        }
        guard claims.kind == kind else { throw .wrongKind }
        guard Double(claims.exp) > now.timeIntervalSince1970 else { throw .expired }
        return claims
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func data(base64URL text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
