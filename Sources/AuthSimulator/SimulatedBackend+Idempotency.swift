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

    /// Where a kept answer is filed: the endpoint and the key's SHA-256. The clear key is never
    /// kept, so a stored state (``StoredState``) holds answers but not what would replay them.
    struct KeptAnswerID: Hashable {
        var endpoint: Endpoint
        var keyDigest: [UInt8]
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
        state.expireKeptAnswers(now: now)
        let id = KeptAnswerID(endpoint: endpoint, keyDigest: SHA256.hash(key.utf8))
        var digest = SHA256()
        digest.update(Array((request.headers["Authorization"] ?? "").utf8))
        digest.update([0])
        digest.update(Array(request.body))
        let fingerprint = digest.finalize()
        // Expiry is checked here too: an answer the sweep has not reached yet (kept while the
        // clock read later than now, as an injected clock may) is gone all the same.
        guard let kept = state.keptAnswers[id], kept.expiresAt > now else {
            return .first(id, fingerprint: fingerprint)
        }
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
        let expiresAt = now.addingTimeInterval(configuration.phoneTokenLifetime)
        state.keptAnswers[id] = KeptAnswer(fingerprint: fingerprint, response: response, expiresAt: expiresAt)
        state.keptInOrder.append((expiresAt, id))
    }
}

extension SimulatedBackend.State {
    /// Forgets the kept answers that have expired by `now`, from the front of ``keptInOrder``.
    ///
    /// Every answer lives the same ``SimulatedBackend/Configuration/phoneTokenLifetime``, so
    /// the order they were kept in is the order they expire in, and the sweep stops at the first
    /// that has not: a keyed request costs the answers that expired since the last one, not a
    /// pass over all of them.
    mutating func expireKeptAnswers(now: Date) {
        while keptSwept < keptInOrder.count, keptInOrder[keptSwept].expiresAt <= now {
            let id = keptInOrder[keptSwept].id
            // The key may have been kept again since, under a later expiry: that one stays.
            if let kept = keptAnswers[id], kept.expiresAt <= now { keptAnswers[id] = nil }
            keptSwept += 1
        }
        // Drop the swept prefix once it is most of the array, so each entry is moved O(1) times.
        if keptSwept >= 1_024, keptSwept * 2 >= keptInOrder.count {
            keptInOrder.removeFirst(keptSwept)
            keptSwept = 0
        }
    }
}
