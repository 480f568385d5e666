/// An event from outside that a scenario's handler took at a step boundary, how it reacted and
/// what the reaction launched: what the run's observers get (``ScenarioEvent/Kind/eventHandled(_:)``)
/// so that a journal, and every view that reads it, can say the event happened and what it did.
///
/// A reaction is not a step of the run: what it launches is never replayed by a rerun. It is
/// recorded here in words (each label redacted, as the trace's are), for people to read.
public struct HandledEvent: Sendable, Hashable, Codable {
    /// The event as a note names it: `terms-changed`.
    public let event: String
    /// The step the run was about to launch, or `nil` at the end of the scenario.
    public let nextStep: String?
    /// How the handler reacted.
    public let reaction: Reaction
    /// What the reaction launched as a scenario (the launch first, then its steps), in the order
    /// the launches were first reported; empty when it launched nothing, or only operations
    /// outside any scenario.
    public let launched: [Launch]

    /// Creates a record of a handled event.
    public init(event: String, nextStep: String?, reaction: Reaction, launched: [Launch] = []) {
        self.event = event
        self.nextStep = nextStep
        self.reaction = reaction
        self.launched = launched
    }

    /// `before SaveTokenOp` or `at the end`, as ``StepBoundary`` says it.
    public var boundary: String { nextStep.map { "before \($0)" } ?? "at the end" }

    /// How a handler reacted to one event (``EventReaction``), in words that survive a journal.
    public enum Reaction: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The run went on.
        case proceeded
        /// The event was kept for a later boundary.
        case postponed
        /// The run ended here, with this error in words.
        case ended(String)

        /// `went on`, `postponed`, `ended the run: …`.
        public var description: String {
            switch self {
            case .proceeded: "went on"
            case .postponed: "postponed"
            case .ended(let error): "ended the run: \(error)"
            }
        }

        /// Reads `"proceeded"`, `"postponed"` or `{"ended": "…"}`.
        public init(from decoder: any Decoder) throws {
            if let word = try? decoder.singleValueContainer().decode(String.self) {
                guard word == "proceeded" || word == "postponed" else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: decoder.codingPath, debugDescription: "\"\(word)\" is no reaction"))
                }
                self = word == "proceeded" ? .proceeded : .postponed
                return
            }
            let container = try decoder.container(keyedBy: Key.self)
            self = .ended(try container.decode(String.self, forKey: .ended))
        }

        /// Writes `"proceeded"`, `"postponed"` or `{"ended": "…"}`.
        public func encode(to encoder: any Encoder) throws {
            guard case .ended(let error) = self else {
                var container = encoder.singleValueContainer()
                return try container.encode(self == .proceeded ? "proceeded" : "postponed")
            }
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(error, forKey: .ended)
        }

        private enum Key: String, CodingKey { case ended }
    }

    /// One scenario or step the reaction launched.
    public struct Launch: Sendable, Hashable, Codable {
        /// Its names from the reaction's scenario down: `["TermsOfUseOp", "SaveTokenOp"]`.
        public internal(set) var path: [String]
        /// How it ended.
        public internal(set) var outcome: Outcome
        /// How many times it was launched (its attempts); 0 for a skipped step and for the
        /// reaction's scenario itself.
        public internal(set) var attempts: Int
        /// What it finished with, redacted as a trace label is; `nil` when it did not succeed or
        /// finished with nothing to show.
        public internal(set) var output: String?
        /// Why it failed, for a failed launch.
        public internal(set) var error: String?

        /// Creates a launch record.
        public init(path: [String], outcome: Outcome, attempts: Int, output: String? = nil, error: String? = nil) {
            self.path = path
            self.outcome = outcome
            self.attempts = attempts
            self.output = output
            self.error = error
        }

        /// How a launch of a reaction ended.
        public enum Outcome: String, Sendable, Hashable, Codable {
            /// It finished with an output.
            case succeeded
            /// It failed (or was cancelled).
            case failed
            /// Its condition did not hold.
            case skipped
            /// It had not finished when the reaction did.
            case unfinished
        }
    }
}
