import Foundation

extension AuthWireFormat {
    /// The contract's judgement of a response (``HTTPAuthAPI/Hooks/validate`` by default): a 2xx
    /// is an answer, anything else an error answer, and a body must be whole and, on a 2xx, JSON.
    ///
    /// - Completeness: a 2xx body shorter than its `Content-Length` is
    ///   ``AuthError/truncatedResponse(received:expected:)`` — the server acted, and its answer is
    ///   lost. An error answer cut off is still a refusal: its status line arrived whole, so it is
    ///   read by its status (a `401` stays `unauthorized`, never a transient failure to repeat). A
    ///   body sent with a `Content-Encoding` is not measured: the length counts the encoded bytes,
    ///   the body the decoded ones.
    /// - Media type: a 2xx body under a `Content-Type` that is not JSON (`application/json` or any
    ///   `…+json`) is ``AuthError/malformedResponse(reason:)`` saying what came instead, e.g. a
    ///   captive portal's `text/html` login page. A missing `Content-Type` is accepted, and so is
    ///   any type on an error answer: a gateway's HTML `502` is still a server error.
    static func verdict(on response: HTTPResponse) throws(AuthError) -> HTTPResponseVerdict {
        guard (200...299).contains(response.status) else { return .errorResponse }
        // A `Content-Encoding` other than identity: the length counts the encoded bytes.
        let encoding = response.headers["Content-Encoding"]?.lowercased() ?? "identity"
        if encoding == "identity", let length = response.headers["Content-Length"],
            let expected = Int(length.trimmingCharacters(in: .whitespaces)), response.body.count < expected
        {
            throw .truncatedResponse(received: response.body.count, expected: expected)
        }
        if !response.body.isEmpty, let mediaType = mediaType(of: response), mediaType != "application/json",
            !mediaType.hasSuffix("+json")
        {
            throw .malformedResponse(reason: "a \(mediaType) body where JSON was expected")
        }
        return .success
    }

    /// `text/html` from `text/HTML; charset=utf-8`: the type without parameters, lowercased.
    private static func mediaType(of response: HTTPResponse) -> String? {
        guard let value = response.headers["Content-Type"] else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A transport failure in the domain's words, one to one:
    /// ``TransportError/invalidResponse(reason:)`` is an answer the client cannot read,
    /// ``AuthError/malformedResponse(reason:)``.
    static func error(from failure: TransportError) -> AuthError {
        switch failure {
        case .timeout: .timeout
        case .cancelled: .cancelled
        case .connectionLost: .connectionLost
        case .unreachable(let reason): .unreachable(reason: reason)
        case .invalidResponse(let reason): .malformedResponse(reason: reason)
        }
    }
}
