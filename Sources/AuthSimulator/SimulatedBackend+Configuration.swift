import AuthFlow
public import Foundation

extension SimulatedBackend {
    /// How the simulated backend behaves. Every field has a default fit for a demo; tests set what
    /// they are about.
    public struct Configuration: Sendable {
        /// The code every SMS carries; its length is the announced code length.
        public var smsCode: String = "123456"
        /// Whether terms must be accepted before a code is sent.
        public var termsRequired: Bool = true
        /// The current terms version; change it between runs to make a saved session meet new terms.
        public var termsVersion: String = "1"
        /// The current terms text.
        public var termsText: String = "By signing in you agree to these demonstration terms of use."
        /// How long each answer takes, delivered by a Dispatch timer, never by blocking the caller.
        public var latency: Duration = .zero
        /// Answer on the caller's thread, before `send` returns, when there is no latency: what a
        /// deterministic driver such as the fault explorer wants. Off by default, as a real
        /// client's answer never arrives inside its own call.
        public var answersOnCallersThread = false
        /// Wrong codes allowed before the number is locked.
        public var attemptsBeforeLock: Int = 3
        /// How long a lock lasts, in seconds.
        public var lockDuration: TimeInterval = 300
        /// How long after a code was sent another may be requested, in seconds.
        public var resendInterval: TimeInterval = 30
        /// How long a code stays valid, in seconds.
        public var codeLifetime: TimeInterval = 300
        /// How long a phone token stays valid, in seconds.
        public var phoneTokenLifetime: TimeInterval = 900
        /// How long an access token stays valid, in seconds.
        public var accessTokenLifetime: TimeInterval = 30 * 24 * 3600
        /// Numbers (E.164) the backend refuses with `invalid_phone`, as a real one refuses numbers
        /// it does not serve.
        public var rejectedNumbers: Set<String> = []
        /// Faults to inject, per endpoint, in order.
        public var faults: [Endpoint: [Fault]] = [:]
        /// The key that signs tokens. Simulators with the same key accept each other's tokens,
        /// across processes; the default is a fixed development key, not a secret.
        public var signingKey: [UInt8] = Array("operations-authflow-simulator-development-key".utf8)
        /// The clock for expiry, resend intervals and locks.
        public var clock: @Sendable () -> Date = { Date() }
        /// Called with every SMS the backend "sends", outside any lock, so a CLI can show the code.
        public var onSMS: (@Sendable (SimulatedSMS) -> Void)?
        /// Makes token identifiers unique across simulator instances; fix it for reproducible tokens.
        public var instanceID: UInt64 = UInt64.random(in: .min ... .max)
        /// Where the backend keeps what it remembers between requests, so a simulator in another
        /// process meets the same backend (see ``SimulatorStateStore``); `nil` keeps it in this
        /// instance only. Faults and latency are this configuration's, never stored; the terms
        /// published since (``SimulatedBackend/publishNextTerms()``, ``SimulatedBackend/Fault/termsChanged(times:)``)
        /// are stored,
        /// and stand while ``termsVersion`` stays the one they were published over.
        public var stateStore: (any SimulatorStateStore)?
        /// Called, outside any lock, with the first problem of each kind the stored state meets.
        public var onStateProblem: (@Sendable (SimulatorStateProblem) -> Void)?

        /// A configuration with every default.
        public init() {}

        /// A configuration with the fields tests change most.
        public init(
            smsCode: String = "123456", termsRequired: Bool = true, termsVersion: String = "1",
            latency: Duration = .zero, attemptsBeforeLock: Int = 3, faults: [Endpoint: [Fault]] = [:]
        ) {
            self.smsCode = smsCode
            self.termsRequired = termsRequired
            self.termsVersion = termsVersion
            self.latency = latency
            self.attemptsBeforeLock = attemptsBeforeLock
            self.faults = faults
        }
    }
}
