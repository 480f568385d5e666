import Foundation
import Operations

/// An error as a journal keeps it: in words, with what retry and resume need to know, and —
/// when the error's own type is `Codable` — its value, so an app can match it by type after a
/// rerun (``decode(as:)``, ``cause(of:as:)``).
///
/// An error value in general cannot be stored (errors are not `Codable`), so a journal keeps its
/// description, its type name and its classification. An innermost error that is `Encodable`
/// and holds nothing confidential is kept as its JSON too.
///
/// It is an `Error` too: a rerun fails a step that failed for good before with its recorded
/// error (see ``JournalReplay``).
public struct RecordedError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The error's description (for a `StepFailure`, the whole failure sentence).
    public let description: String
    /// The type name of the innermost error (the root cause of a `StepFailure`).
    public let type: String
    /// Whether the error said a later attempt may succeed (`RetryableError/isTransient`).
    public let isTransient: Bool
    /// Whether it was a cancellation.
    public let isCancellation: Bool
    /// For a `StepFailure`, the failed steps from the outermost scenario down.
    public let stepPath: [String]?
    /// Whether the request the error answers may have taken effect all the same (a lost
    /// answer, a timeout, a cancellation: `OutcomeUncertainError`), so a repeat of the attempt
    /// must carry its idempotency key.
    public internal(set) var isOutcomeUncertain: Bool
    /// The innermost error's type with its module, `Onboarding.OnboardingError`: what
    /// ``matches(_:)`` compares, so two types of one name in different modules stay apart.
    /// `nil` in journals written before errors kept it.
    public let qualifiedType: String?
    /// The innermost error's value as JSON, when its type is `Encodable`, it encoded, and it
    /// holds nothing confidential (`JournalConfidential`: an error is not sealed, so one that
    /// holds a secret is kept in words only); `nil` otherwise.
    let value: String?

    /// Describes `error`, any error a step or scenario finished with, for the journal.
    public init(_ error: any Error) {
        // A step failed again with its recorded error (a rerun going on undoing) keeps it as
        // it was, and so does a failure that wraps it.
        if let recorded = error as? RecordedError {
            self = recorded
            return
        }
        let failure = error as? StepFailure
        let root = failure?.rootCause ?? error
        let recordedRoot = root as? RecordedError
        self.description = String(describing: error)
        self.type = recordedRoot?.type ?? String(describing: Swift.type(of: root))
        self.isTransient = recordedRoot?.isTransient ?? (root as? any RetryableError)?.isTransient ?? false
        self.isCancellation = error.isCancellation
        self.stepPath = failure?.stepPath
        self.isOutcomeUncertain = recordedRoot?.isOutcomeUncertain ?? error.outcomeIsUncertain
        self.qualifiedType = recordedRoot.map(\.qualifiedType) ?? String(reflecting: Swift.type(of: root))
        self.value =
            recordedRoot.map(\.value) ?? RecordedValue.clearJSON(of: root).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Decodes a recorded error; journals written before uncertainty was recorded read as
    /// definite answers, except cancellations, which were always uncertain; journals written
    /// before errors kept their value read without it (``decode(as:)`` is then `nil`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        description = try container.decode(String.self, forKey: .description)
        type = try container.decode(String.self, forKey: .type)
        isTransient = try container.decode(Bool.self, forKey: .isTransient)
        isCancellation = try container.decode(Bool.self, forKey: .isCancellation)
        stepPath = try container.decodeIfPresent([String].self, forKey: .stepPath)
        isOutcomeUncertain = try container.decodeIfPresent(Bool.self, forKey: .isOutcomeUncertain) ?? isCancellation
        qualifiedType = try container.decodeIfPresent(String.self, forKey: .qualifiedType)
        value = try container.decodeIfPresent(String.self, forKey: .value)
    }

    enum CodingKeys: String, CodingKey {
        case description, type
        case isTransient = "transient"
        case isCancellation = "cancelled"
        case stepPath
        case isOutcomeUncertain = "uncertain"
        case qualifiedType, value
    }
}
