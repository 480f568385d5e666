import AuthFlow
import Foundation

/// The `Idempotency-Key` side of the contract (Docs/HTTP-API.md): the first answer to a key is
/// kept, per endpoint, for as long as a phone token lives, and a repeat of the same request gets
/// that answer back without the backend acting again (no second SMS, no second verification
/// attempt, no second acceptance).
extension SimulatedBackend {
    /// One kept answer, with the fingerprint of the request it answered.
    struct KeptAnswer {
        /// SHA-256 of the request's authorization header and body: a repeat must match it.
        var fingerprint: [UInt8]
        var response: HTTPResponse
        var expiresAt: Date
    }

    /// Where a kept answer is filed: the endpoint and the clear key, which never leaves memory.
    struct KeptAnswerID: Hashable {
        var endpoint: Endpoint
        var key: String
    }

    /// What the key of a request asks the backend to do.
    enum KeyedRequest {
        /// No key, or a `GET`: handle it as usual.
        case unkeyed
        /// A key seen for the first time: handle it, then keep the answer under `id`.
        case first(KeptAnswerID, fingerprint: [UInt8])
        /// Answer this, without acting.
        case answered(HTTPResponse)
    }

    /// Reads and checks the request's key: a bad key is `400 invalid_request`, a repeat gets the
    /// kept answer, the same key on a different request is `422 idempotency_key_reused`.
    func keyedRequest(_ request: HTTPRequest, endpoint: Endpoint, state: inout State, now: Date) -> KeyedRequest {
        guard endpoint.route.method == .post, let key = request.headers["Idempotency-Key"] else { return .unkeyed }
        guard !key.isEmpty, key.utf8.count <= 255 else {
            return .answered(
                Reply.error(400, "invalid_request", "The Idempotency-Key header must have 1 to 255 characters."))
        }
        state.keptAnswers = state.keptAnswers.filter { $0.value.expiresAt > now }
        let id = KeptAnswerID(endpoint: endpoint, key: key)
        var digest = SHA256()
        digest.update(Array((request.headers["Authorization"] ?? "").utf8))
        digest.update([0])
        digest.update(Array(request.body))
        let fingerprint = digest.finalize()
        guard let kept = state.keptAnswers[id] else { return .first(id, fingerprint: fingerprint) }
        guard kept.fingerprint == fingerprint else {
            return .answered(
                Reply.error(
                    422, "idempotency_key_reused",
                    "This Idempotency-Key was already used for a different request to this endpoint."))
        }
        return .answered(kept.response)
    }

    /// Keeps the first answer to a key, unless it says the backend did not act and a later
    /// repeat may succeed (a 5xx or a `429`): those are answered afresh.
    func keep(_ response: HTTPResponse, as id: KeptAnswerID, fingerprint: [UInt8], state: inout State, now: Date) {
        guard response.status < 500, response.status != 429 else { return }
        state.keptAnswers[id] = KeptAnswer(
            fingerprint: fingerprint, response: response,
            expiresAt: now.addingTimeInterval(configuration.phoneTokenLifetime))
    }
}
