import AuthFlow
import Foundation

extension SimulatedBackend {
    /// Everything the simulator remembers between requests, guarded by one mutex. With a
    /// ``Configuration/stateStore`` the part a backend keeps (``StoredState``) is read from the
    /// store before each request and written back after; faults, counters and the sent-SMS log
    /// are this instance's own.
    struct State {
        var termsVersion: String
        var termsText: String
        var faults: [Endpoint: [Fault]]
        var counts: [Endpoint: Int] = [:]
        /// How many requests the backend acted on, per endpoint: not those a fault stopped
        /// before acting, nor repeats answered from a kept answer.
        var actions: [Endpoint: Int] = [:]
        var sentSMS: [SimulatedSMS] = []
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
        var issued: UInt64 = 0
        /// Access tokens signed out, by `jti`, with when each would have expired: a signed token
        /// cannot be unsigned, so revocation is a deny-list, and an entry is needed only until its
        /// token expires (a stored state drops it then).
        var revokedSessions: [String: Date] = [:]
        /// The first answer to each idempotency key, per endpoint (see ``keyedRequest``).
        var keptAnswers: [KeptAnswerID: KeptAnswer] = [:]
        /// Each kept answer's expiry and id, in the order they were kept, which is the order they
        /// expire in (``expireKeptAnswers(now:)``); entries before ``keptSwept`` are done with.
        var keptInOrder: [(expiresAt: Date, id: KeptAnswerID)] = []
        /// How far ``expireKeptAnswers(now:)`` has gone through ``keptInOrder``.
        var keptSwept = 0
        /// The stored state's bytes as this instance last read or wrote them, so that a request
        /// that finds them unchanged (no other process wrote since) skips decoding them.
        var storedBytes: Data?
        /// Whether a stored state that could not be used was reported (``SimulatorStateProblem``):
        /// each kind of problem is told once per instance, not once per request.
        var reportedStartedAfresh = false
        var reportedNotStored = false

        /// Publishes the next terms version (`2` after `1`; a version that is not a number gets
        /// `.1` appended), as ``Fault/termsChanged(times:)`` does.
        mutating func publishNextTerms() {
            termsVersion = Int(termsVersion).map { String($0 + 1) } ?? termsVersion + ".1"
            termsText = "Updated demonstration terms of use (version \(termsVersion))."
        }

        mutating func takeFault(for endpoint: Endpoint) -> Fault? {
            guard var queue = faults[endpoint], let fault = queue.first else { return nil }
            if let rest = fault.decremented() {
                queue[0] = rest
            } else {
                queue.removeFirst()
            }
            faults[endpoint] = queue.isEmpty ? nil : queue
            return fault.times > 0 ? fault : takeFault(for: endpoint)
        }

        mutating func nextTokenID(instance: UInt64) -> String {
            issued += 1
            return String(instance, radix: 36) + "-" + String(issued, radix: 36)
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
