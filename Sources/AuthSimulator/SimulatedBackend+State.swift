import AuthFlow
import Foundation

extension SimulatedBackend {
    /// Everything the simulator remembers between requests, guarded by one mutex.
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
        /// Terms accepted in this instance, by attempt; tokens carry acceptance across instances.
        var acceptedByAttempt: [String: String] = [:]
        /// The terms version each person (phone number) accepted in this instance: one who
        /// accepted the current version is not asked again, and accepting as one number accepts
        /// for no other.
        var acceptedByPerson: [String: String] = [:]
        /// Wrong codes left before a lock, by phone.
        var attemptsLeft: [String: Int] = [:]
        /// When each locked phone unlocks.
        var lockedUntil: [String: Date] = [:]
        var issued: UInt64 = 0
        /// Access tokens signed out in this instance, by `jti`: a signed token cannot be unsigned,
        /// so revocation is a deny-list, kept as long as the instance lives (a real server keeps
        /// each entry until the token would have expired).
        var revokedSessions: Set<String> = []
        /// The first answer to each idempotency key, per endpoint (see ``keyedRequest``).
        var keptAnswers: [KeptAnswerID: KeptAnswer] = [:]
        /// Each kept answer's expiry and id, in the order they were kept, which is the order they
        /// expire in (``expireKeptAnswers(now:)``); entries before ``keptSwept`` are done with.
        var keptInOrder: [(expiresAt: Date, id: KeptAnswerID)] = []
        /// How far ``expireKeptAnswers(now:)`` has gone through ``keptInOrder``.
        var keptSwept = 0

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

    struct PendingCode {
        var code: String
        var sentAt: Date
    }

    /// What handling a request produced: a response (none for a hang), an SMS to announce, and
    /// whether the response is lost on the way back (``Fault/lostResponse(times:)``).
    struct Outcome {
        var response: HTTPResponse?
        var sms: SimulatedSMS?
        var lost = false
    }
}
