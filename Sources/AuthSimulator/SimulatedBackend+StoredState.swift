import AuthFlow
import Foundation

/// The part of the simulator's state a backend keeps between requests, as the bytes a
/// ``SimulatorStateStore`` holds: one JSON object with sorted keys, among them
/// `"format":"authsimulator.state"` and `"version":1` (Docs/Architecture.md, *The simulator's
/// state*).
///
/// Faults, counters and the sent-SMS log are left out: they belong to one instance (one
/// process's `--backend` options, one test's counts), not to the backend a rerun meets.
struct StoredState: Codable, Equatable {
    /// What the `format` field must say; anything else is not a simulator's state.
    static let format = "authsimulator.state"
    /// The version this build reads and writes. A change that older builds would misread
    /// changes it; a build meeting another version starts afresh rather than guess.
    static let version = 1

    /// Published terms, with the configured version they were published over: a configuration
    /// that names another version (`sim:?termsVersion=2`) replaces them, as a server restarted
    /// with other terms would.
    struct Terms: Codable, Equatable {
        var configuredVersion: String
        var version: String
        var text: String
    }

    /// One kept answer, in the order answers were kept (the order they expire in).
    struct KeptAnswer: Codable, Equatable {
        var endpoint: SimulatedBackend.Endpoint
        /// SHA-256 of the idempotency key; the clear key is never kept.
        var key: Data
        /// SHA-256 of the request's authorization header and body.
        var fingerprint: Data
        var expiresAt: Date
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    var format = Self.format
    var version = Self.version
    var terms: Terms
    var tokensIssued: UInt64
    var codes: [String: SimulatedBackend.PendingCode]
    var attemptsLeft: [String: Int]
    var lockedUntil: [String: Date]
    var acceptedByAttempt: [String: SimulatedBackend.AttemptTerms]
    var acceptedByPerson: [String: String]
    var revokedSessions: [String: Date]
    var keptAnswers: [KeptAnswer]

    /// Why stored bytes are not a state this build can use, in words for the person.
    struct Unusable: Error {
        let reason: String
    }

    /// Reads stored bytes, checking the format and version before the rest, so that a state of
    /// another version is told apart from a damaged one.
    static func decode(_ bytes: Data) throws(Unusable) -> StoredState {
        struct Header: Decodable {
            let format: String?
            let version: Int?
        }
        guard let header = try? decoder.decode(Header.self, from: bytes) else {
            throw Unusable(reason: "is damaged (not a JSON object)")
        }
        guard header.format == format else {
            throw Unusable(reason: "is not the simulator's state (no format \(format))")
        }
        guard header.version == version else {
            throw Unusable(
                reason:
                    "was written in format version \(header.version.map(String.init) ?? "none"); this build reads \(version)"
            )
        }
        do {
            return try decoder.decode(StoredState.self, from: bytes)
        } catch {
            throw Unusable(reason: "is damaged (\(Self.describe(error)))")
        }
    }

    /// The bytes of this state: keys sorted, so that an unchanged state encodes to the same
    /// bytes and a request that changed nothing writes nothing.
    func encoded() -> Data {
        // Strings, numbers, dates and data: encoding cannot fail.
        (try? Self.encoder.encode(self)) ?? Data()
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        decoder.dataDecodingStrategy = .base64
        return decoder
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// A decoding error by where it happened, without the values (they may be codes or tokens).
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "unreadable" }
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
            .dataCorrupted(let found):
            context = found
        @unknown default:
            return "unreadable"
        }
        let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
        if case .keyNotFound(let key, _) = error { return "no \(key.stringValue) at /\(path.joined(separator: "/"))" }
        return path.isEmpty ? "not the expected object" : "unexpected value at /\(path.joined(separator: "/"))"
    }
}

extension SimulatedBackend.State {
    /// What a backend keeps of this state at `now`: entries that can no longer change an answer
    /// are dropped (codes past their lifetime and resend interval, locks and acceptances past
    /// their end, revocations of expired tokens, expired kept answers), so the stored state
    /// holds what happened in the last lifetimes, not everything ever.
    func stored(now: Date, configuration: SimulatedBackend.Configuration) -> StoredState {
        let codeLife = max(configuration.codeLifetime, configuration.resendInterval)
        var kept: [StoredState.KeptAnswer] = []
        for entry in keptInOrder[keptSwept...] where entry.expiresAt > now {
            // An id kept again later has one answer, listed where it was kept last.
            guard let answer = keptAnswers[entry.id], answer.expiresAt == entry.expiresAt else { continue }
            kept.append(
                StoredState.KeptAnswer(
                    endpoint: entry.id.endpoint, key: Data(entry.id.keyDigest), fingerprint: Data(answer.fingerprint),
                    expiresAt: answer.expiresAt,
                    status: answer.response.status, headers: answer.response.headers.fields,
                    body: answer.response.body))
        }
        return StoredState(
            terms: .init(configuredVersion: configuration.termsVersion, version: termsVersion, text: termsText),
            tokensIssued: issued,
            codes: codes.filter { $0.value.sentAt.addingTimeInterval(codeLife) > now },
            attemptsLeft: attemptsLeft, lockedUntil: lockedUntil.filter { $0.value > now },
            acceptedByAttempt: acceptedByAttempt.filter { $0.value.expiresAt > now },
            acceptedByPerson: acceptedByPerson, revokedSessions: revokedSessions.filter { $0.value > now },
            keptAnswers: kept)
    }

    /// Replaces what a backend keeps with `stored`, or with a fresh backend's when `nil`; what
    /// belongs to this instance (faults, counters, the sent-SMS log) stays.
    mutating func restore(_ stored: StoredState?, configuration: SimulatedBackend.Configuration) {
        var answers: [SimulatedBackend.KeptAnswerID: SimulatedBackend.KeptAnswer] = [:]
        var order: [(expiresAt: Date, id: SimulatedBackend.KeptAnswerID)] = []
        for answer in stored?.keptAnswers ?? [] {
            let id = SimulatedBackend.KeptAnswerID(endpoint: answer.endpoint, keyDigest: Array(answer.key))
            answers[id] = SimulatedBackend.KeptAnswer(
                fingerprint: Array(answer.fingerprint),
                response: HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body),
                expiresAt: answer.expiresAt)
            order.append((answer.expiresAt, id))
        }
        if let terms = stored?.terms, terms.configuredVersion == configuration.termsVersion {
            termsVersion = terms.version
            termsText = terms.text
        } else {
            termsVersion = configuration.termsVersion
            termsText = configuration.termsText
        }
        issued = stored?.tokensIssued ?? 0
        codes = stored?.codes ?? [:]
        attemptsLeft = stored?.attemptsLeft ?? [:]
        lockedUntil = stored?.lockedUntil ?? [:]
        acceptedByAttempt = stored?.acceptedByAttempt ?? [:]
        acceptedByPerson = stored?.acceptedByPerson ?? [:]
        revokedSessions = stored?.revokedSessions ?? [:]
        keptAnswers = answers
        keptInOrder = order
        keptSwept = 0
    }
}
