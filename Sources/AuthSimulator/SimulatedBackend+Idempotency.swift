import AuthFlow
import Foundation

/// The `Idempotency-Key` side of the contract (Docs/HTTP-API.md): the first answer to a key is
/// kept, per endpoint, for as long as a phone token lives, and a repeat of the same request gets
/// that answer back without the backend acting again (no second SMS, no second verification
/// attempt, no second acceptance).
extension SimulatedBackend {
    /// One kept answer, with the request it answered, as the stored state holds it.
    struct KeptAnswer: Codable {
        var endpoint: Endpoint
        /// SHA-256 of the idempotency key; the clear key is never kept, so a stored state holds
        /// answers but not what would replay them.
        var key: Data
        /// SHA-256 of the request's authorization header and body: a repeat must match it.
        var fingerprint: Data
        var expiresAt: Date
        var status: Int
        var headers: [String: String]
        var body: Data

        var id: KeptAnswerID { KeptAnswerID(endpoint: endpoint, keyDigest: Array(key)) }
        var response: HTTPResponse { HTTPResponse(status: status, headers: HTTPHeaders(headers), body: body) }
    }

    /// Where a kept answer is filed: the endpoint and the key's SHA-256.
    struct KeptAnswerID: Hashable {
        var endpoint: Endpoint
        var keyDigest: [UInt8]
    }

    /// The kept answers by id, and each one's expiry and id in the order they were kept, which is
    /// the order they expire in (``expire(now:)``); entries before ``swept`` are done with. Stored
    /// as an array of the answers in that order.
    struct KeptAnswers: Codable {
        var byID: [KeptAnswerID: KeptAnswer] = [:]
        var inOrder: [(expiresAt: Date, id: KeptAnswerID)] = []
        /// How far ``expire(now:)`` has gone through ``inOrder``.
        var swept = 0

        init() {}

        init(from decoder: any Decoder) throws {
            for answer in try [KeptAnswer](from: decoder) {
                byID[answer.id] = answer
                inOrder.append((answer.expiresAt, answer.id))
            }
        }

        func encode(to encoder: any Encoder) throws {
            // An id kept again later has one answer, listed where it was kept last.
            try inOrder[swept...].compactMap { entry in
                byID[entry.id].flatMap { $0.expiresAt == entry.expiresAt ? $0 : nil }
            }
            .encode(to: encoder)
        }

        /// Forgets the kept answers that have expired by `now`, from the front of ``inOrder``.
        ///
        /// Every answer lives the same ``SimulatedBackend/Configuration/phoneTokenLifetime``, so
        /// the order they were kept in is the order they expire in, and the sweep stops at the
        /// first that has not.
        mutating func expire(now: Date) {
            while swept < inOrder.count, inOrder[swept].expiresAt <= now {
                let id = inOrder[swept].id
                // The key may have been kept again since, under a later expiry: that one stays.
                if let kept = byID[id], kept.expiresAt <= now { byID[id] = nil }
                swept += 1
            }
            if swept >= 1_024, swept * 2 >= inOrder.count {
                inOrder.removeFirst(swept)
                swept = 0
            }
        }
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
        state.keptAnswers.expire(now: now)
        let id = KeptAnswerID(endpoint: endpoint, keyDigest: SHA256.hash(key.utf8))
        var digest = SHA256()
        digest.update(Array((request.headers["Authorization"] ?? "").utf8))
        digest.update([0])
        digest.update(Array(request.body))
        let fingerprint = digest.finalize()
        // Expiry is checked here too: an answer the sweep has not reached yet (kept while the
        // clock read later than now, as an injected clock may) is gone all the same.
        guard let kept = state.keptAnswers.byID[id], kept.expiresAt > now else {
            return .first(id, fingerprint: fingerprint)
        }
        guard kept.fingerprint == Data(fingerprint) else {
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
        let expiresAt = now.addingTimeInterval(configuration.phoneTokenLifetime)
        state.keptAnswers.byID[id] = KeptAnswer(
            endpoint: id.endpoint, key: Data(id.keyDigest), fingerprint: Data(fingerprint), expiresAt: expiresAt,
            status: response.status, headers: response.headers.fields, body: response.body)
        state.keptAnswers.inOrder.append((expiresAt, id))
    }
}
