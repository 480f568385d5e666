import AuthFlow
import Foundation

extension SimulatedBackend {
    /// Everything the simulator remembers between requests, guarded by one mutex, and with a
    /// ``Configuration/stateStore`` the bytes the store holds: its coded fields, one JSON object
    /// with sorted keys, among them `"format":"authsimulator.state"` and `"version":1`
    /// (Docs/Architecture.md, *The simulator's state*), read from the store before each request
    /// and written back after. The counters and the sent-SMS log are this instance's own (one
    /// test's counts), never coded.
    struct State: Codable {
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

        /// The configuration's fault plan and what is left of it. Kept with the rest, so that an
        /// instance with the same plan (a rerun given the same `--backend`) goes on where the last
        /// one stopped, as `opctl serve` would; one with another plan starts its own.
        struct Faults: Codable, Equatable {
            var plan: [Endpoint: [Fault]]
            var left: [Endpoint: [Fault]]
        }

        var format = Self.format
        var version = Self.version
        var terms: Terms
        /// `nil` only in a state stored before faults were kept: ``restore(_:configuration:)``
        /// gives it the configuration's plan.
        var faults: Faults?
        var tokensIssued: UInt64 = 0
        /// The pending code of each sign-in attempt, by the phone token's `jti`.
        var codes: [String: PendingCode] = [:]
        /// Terms accepted by attempt (the phone token's `jti`), until that token expires; tokens
        /// carry acceptance to simulators that do not share this state.
        var acceptedByAttempt: [String: AttemptTerms] = [:]
        /// The terms version each person (phone number) accepted: one who
        /// accepted the current version is not asked again, and accepting as one number accepts
        /// for no other.
        var acceptedByPerson: [String: String] = [:]
        /// Wrong codes left before a lock, by phone.
        var attemptsLeft: [String: Int] = [:]
        /// When each locked phone unlocks.
        var lockedUntil: [String: Date] = [:]
        /// Access tokens signed out, by `jti`, with when each would have expired: a signed token
        /// cannot be unsigned, so revocation is a deny-list, and an entry is needed only until its
        /// token expires (a stored state drops it then).
        var revokedSessions: [String: Date] = [:]
        /// The first answer to each idempotency key, per endpoint (see ``keyedRequest``).
        var keptAnswers = KeptAnswers()

        var counts: [Endpoint: Int] = [:]
        /// How many requests the backend acted on, per endpoint: not those a fault stopped
        /// before acting, nor repeats answered from a kept answer.
        var actions: [Endpoint: Int] = [:]
        var sentSMS: [SimulatedSMS] = []
        /// The stored state's bytes as this instance last read or wrote them, so that a request
        /// that finds them unchanged (no other process wrote since) skips decoding them.
        var storedBytes: Data?
        /// Whether a stored state that could not be used was reported (``SimulatorStateProblem``):
        /// each kind of problem is told once per instance, not once per request.
        var reportedStartedAfresh = false
        var reportedNotStored = false

        private enum CodingKeys: String, CodingKey {
            case format, version, terms, faults, tokensIssued, codes, acceptedByAttempt, acceptedByPerson
            case attemptsLeft, lockedUntil, revokedSessions, keptAnswers
        }

        init(configuration: Configuration) {
            terms = Terms(
                configuredVersion: configuration.termsVersion, version: configuration.termsVersion,
                text: configuration.termsText)
            faults = Faults(plan: configuration.faults, left: configuration.faults)
        }

        /// Publishes the next terms version (`2` after `1`; a version that is not a number gets
        /// `.1` appended), as ``Fault/termsChanged(times:)`` does.
        mutating func publishNextTerms() {
            terms.version = Int(terms.version).map { String($0 + 1) } ?? terms.version + ".1"
            terms.text = "Updated demonstration terms of use (version \(terms.version))."
        }

        mutating func takeFault(for endpoint: Endpoint) -> Fault? {
            guard var queue = faults?.left[endpoint], let fault = queue.first else { return nil }
            if let rest = fault.decremented() {
                queue[0] = rest
            } else {
                queue.removeFirst()
            }
            faults?.left[endpoint] = queue.isEmpty ? nil : queue
            return fault.times > 0 ? fault : takeFault(for: endpoint)
        }

        mutating func nextTokenID(instance: UInt64) -> String {
            tokensIssued += 1
            return String(instance, radix: 36) + "-" + String(tokensIssued, radix: 36)
        }

        /// What a backend keeps of this state at `now`: entries that can no longer change an
        /// answer are dropped (codes past their lifetime and resend interval, locks and
        /// acceptances past their end, revocations of expired tokens, expired kept answers), so
        /// the stored state holds what happened in the last lifetimes, not everything ever.
        func pruned(now: Date, configuration: Configuration) -> State {
            let codeLife = max(configuration.codeLifetime, configuration.resendInterval)
            var kept = self
            kept.codes = codes.filter { $0.value.sentAt.addingTimeInterval(codeLife) > now }
            kept.lockedUntil = lockedUntil.filter { $0.value > now }
            kept.acceptedByAttempt = acceptedByAttempt.filter { $0.value.expiresAt > now }
            kept.revokedSessions = revokedSessions.filter { $0.value > now }
            kept.keptAnswers.inOrder = keptAnswers.inOrder[keptAnswers.swept...].filter { $0.expiresAt > now }
            kept.keptAnswers.swept = 0
            return kept
        }

        /// Replaces what a backend keeps with `stored`, or with a fresh backend's when `nil`;
        /// terms and faults configured otherwise than `stored`'s are the configuration's, and
        /// what belongs to this instance (counters, the sent-SMS log) stays.
        mutating func restore(_ stored: State?, configuration: Configuration) {
            let fresh = State(configuration: configuration)
            var next = stored ?? fresh
            if next.terms.configuredVersion != configuration.termsVersion { next.terms = fresh.terms }
            if next.faults?.plan != configuration.faults { next.faults = fresh.faults }
            (next.counts, next.actions, next.sentSMS) = (counts, actions, sentSMS)
            (next.reportedStartedAfresh, next.reportedNotStored) = (reportedStartedAfresh, reportedNotStored)
            self = next
        }

        /// Why stored bytes are not a state this build can use, in words for the person.
        struct Unusable: Error {
            let reason: String
        }

        /// Reads stored bytes, checking the format and version before the rest, so that a state
        /// of another version is told apart from a damaged one.
        static func decode(_ bytes: Data) throws(Unusable) -> State {
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
                return try decoder.decode(State.self, from: bytes)
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
            if case .keyNotFound(let key, _) = error {
                return "no \(key.stringValue) at /\(path.joined(separator: "/"))"
            }
            return path.isEmpty ? "not the expected object" : "unexpected value at /\(path.joined(separator: "/"))"
        }
    }

    struct PendingCode: Codable, Equatable {
        var code: String
        var sentAt: Date
    }

    /// The terms version an attempt accepted, kept as long as the attempt's phone token lives.
    struct AttemptTerms: Codable, Equatable {
        var version: String
        var expiresAt: Date
    }

    /// What handling a request produced: a response (none for a hang), an SMS to announce, and
    /// whether the response is lost on the way back (``Fault/lostResponse(times:)``).
    struct Outcome {
        var response: HTTPResponse?
        var sms: SimulatedSMS?
        var lost = false
    }
}

extension SimulatedBackend.Endpoint: CodingKeyRepresentable {}
