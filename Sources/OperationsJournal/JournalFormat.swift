import Foundation
import Operations

/// The journal's on-disk format: names and the shapes of its lines as read back.
///
/// A journal is JSON Lines. The first line is a header; every other line is one event:
///
/// ```
/// {"format":"operations.journal","version":1,"run":"20250101-120000-000-1a2b3c4d","scenario":"AuthScenario","createdAt":"2025-01-01T12:00:00.000Z"}
/// {"event":"runStarted","at":1735732800000,"input":"+15551234567"}
/// {"event":"stepLaunched","at":1735732800001,"address":[{"index":0,"name":"PhoneOp"}],"attempt":1,"purity":"pure","input":"+15551234567"}
/// {"event":"stepLaunched","at":…,"address":[…],"attempt":1,"purity":"sideEffects","idempotencyKey":"…","input":{…}}
/// {"event":"stepSucceeded","at":1735732800050,"address":[{"index":0,"name":"PhoneOp"}],"attempt":1,"durationMs":49.120,"output":{"token":"…"}}
/// {"event":"stepFailed","at":…,"address":[…],"attempt":1,"durationMs":3.000,"error":{"description":"…","type":"AuthError","transient":false,"cancelled":false},"willRetry":false}
/// {"event":"stepSkipped","at":…,"address":[…]}
/// {"event":"stepReplayed","at":…,"address":[…]}
/// {"event":"runFinished","at":…,"status":"failed","durationMs":52.000,"error":{…,"stepPath":["CodeOp"]}}
/// {"event":"resumed","at":…,"session":2}
/// {"event":"resumed","at":…,"session":3,"fingerprint":"…","shape":{…}}
/// ```
///
/// `runFinished` has `status` `succeeded` (with `output`), `failed`, `cancelled` or
/// `interrupted`. A `stepLaunched` line carries the step's `purity` and, for a step with side
/// effects, the attempt's `idempotencyKey`; that line is written and synced before the operation
/// launches, in buffered mode too (write-ahead), so a process killed at any moment after the
/// launch leaves the key for the rerun. An error's `uncertain` says its request may have taken
/// effect (`OutcomeUncertainError`). Every line ends with its checksum, `"sum"`
/// (``LineChecksum``). Step values are written by `JSONEncoder`, keys sorted; the envelope's
/// fields in the order shown.
///
/// A `resumed` line carries `fingerprint` and `shape` (and `scenarioVersion`) when the build
/// that resumed the run has another shape than the journal's, changed only after the steps the
/// run reached (`ScenarioShape/mismatch(journal:recordedSteps:)`): from that line on, the
/// journal's shape is that one.
///
/// A header written by ``RunStore/create(scenario:settings:durability:)`` also carries the
/// scenario's shape (`ScenarioShape`, as JSON), its `ScenarioShape/fingerprint`, the
/// author's `scenarioVersion` when there is one, and the host's `settings` (a string→string
/// object), all in the one line written and synced when the file is created:
///
/// ```
/// {"format":…,"createdAt":…,"scenarioVersion":2,"fingerprint":"3f1c…","shape":{"name":"AuthScenario","steps":[…],"version":2},"settings":{"backend":"simulated"},"input":"+15551234567"}
/// ```
///
/// `input` (or `inputNotRecorded`) is there when the host passed the run's input to
/// ``RunStore/create(scenario:settings:input:durability:)``: the header, the input and the
/// settings are then durable together, so a run killed before it started can be resumed.
///
/// These fields are optional, so version 1 readers read such headers and journals written
/// before them still list and show; resuming one without a shape against a scenario is refused
/// (``JournalError/missingShape(_:scenario:)``). A fingerprint that does not match the shape
/// beside it is damage (``JournalError/damaged(_:line:reason:)``, line 1).
///
/// `at` is milliseconds since 1970. A value that could not be encoded is written as
/// `"inputNotRecorded"`/`"outputNotRecorded"` with the reason instead of `"input"`/`"output"`.
/// A ``JournalConfidential`` value is never written in clear. One that is confidential itself
/// is `"inputSealed"`/`"outputSealed"` (base64 of what the run's ``JournalSealer`` made) or,
/// without a sealer, not recorded with the reason. One that holds confidential values below its
/// top level is written in clear with each of them sealed alone, or withheld alone without a
/// sealer, as `"inputWithConfidentialFields"`/`"outputWithConfidentialFields"`:
///
/// ```
/// "outputWithConfidentialFields":{"value":{"order":"o-1","account":{"sealed":"q83v…"}},"confidential":["/account"]}
/// ```
///
/// `confidential` lists the places (JSON Pointers) that hold a `{"sealed":…}` or
/// `{"withheld":…}` marker; nowhere else is such an object a marker (``ConfidentialFields``).
/// Readers that predate the form see no value there and launch the step again. A value with
/// a withheld field cannot be rebuilt, so its step is launched again on resume, and
/// ``StepRecord/outputNotKept`` says why. A sealer that throws leaves the value out and becomes
/// the journal's error (``JournalError/sealingFailed(_:type:reason:)``).
/// Unknown event names are skipped by readers, so version 1 can gain events without breaking
/// older readers; anything else changes ``version``.
enum JournalFormat {
    static let name = "operations.journal"
    static let version = 1

    enum Event: String {
        case runStarted
        case resumed
        case stepLaunched
        case stepSucceeded
        case stepFailed
        case stepSkipped
        case stepReplayed
        case runFinished

        /// Whether lines of this event may record a step's or the run's input or output.
        var carriesValues: Bool {
            switch self {
            case .runStarted, .stepLaunched, .stepSucceeded, .runFinished: true
            case .resumed, .stepFailed, .stepSkipped, .stepReplayed: false
            }
        }
    }

    /// The fields a recorded value goes into: in clear, sealed (base64 of what the
    /// ``JournalSealer`` made), or the reason it is not there.
    struct ValueFields {
        let clear: String
        let sealed: String
        /// A clear value with confidential values inside sealed or withheld alone
        /// (``ConfidentialFields``).
        let withConfidentialFields: String
        let notRecorded: String

        static let input = ValueFields(
            clear: "input", sealed: "inputSealed", withConfidentialFields: "inputWithConfidentialFields",
            notRecorded: "inputNotRecorded")
        static let output = ValueFields(
            clear: "output", sealed: "outputSealed", withConfidentialFields: "outputWithConfidentialFields",
            notRecorded: "outputNotRecorded")
    }

    /// The first line.
    struct Header: Decodable {
        let format: String?
        let version: Int?
        let run: String?
        let scenario: String?
        let createdAt: String?
        let scenarioVersion: Int?
        let fingerprint: String?
        let shape: ScenarioShape?
        let settings: [String: String]?
    }

    /// Just enough of the first line to tell a journal from another JSON file.
    struct Signature: Decodable {
        let format: String?
        let version: Int?
    }

    /// An event line; which fields are present depends on ``event``.
    struct EventLine: Decodable {
        let event: String
        let at: Int64
        let address: StepAddress?
        let attempt: Int?
        let durationMs: Double?
        /// The recorded input, if the line carries one (read apart: ``values(in:)``).
        var recordedInput: RecordedValue?
        /// The recorded output, if the line carries one.
        var recordedOutput: RecordedValue?
        let error: RecordedError?
        let willRetry: Bool?
        let status: String?
        let session: Int?
        let purity: Purity?
        let idempotencyKey: IdempotencyKey?
        /// On `resumed`: the shape of the build that resumed the run, when it differs from the
        /// journal's (a compatible change), with its fingerprint.
        let shape: ScenarioShape?
        let fingerprint: String?
        /// On `resumed`: the damaged lines that resume skipped, so later reads skip them too.
        let skippedLines: [Int]?

        private enum CodingKeys: String, CodingKey {
            case event, at, address, attempt, durationMs
            case error, willRetry, status, session, purity, idempotencyKey, shape, fingerprint, skippedLines
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            event = try container.decode(String.self, forKey: .event)
            at = try container.decode(Int64.self, forKey: .at)
            address = try container.decodeIfPresent([StepAddress.Component].self, forKey: .address)
                .map(StepAddress.init(path:))
            attempt = try container.decodeIfPresent(Int.self, forKey: .attempt)
            durationMs = try container.decodeIfPresent(Double.self, forKey: .durationMs)
            error = try container.decodeIfPresent(RecordedError.self, forKey: .error)
            willRetry = try container.decodeIfPresent(Bool.self, forKey: .willRetry)
            status = try container.decodeIfPresent(String.self, forKey: .status)
            session = try container.decodeIfPresent(Int.self, forKey: .session)
            purity = try container.decodeIfPresent(Purity.self, forKey: .purity)
            idempotencyKey = try container.decodeIfPresent(IdempotencyKey.self, forKey: .idempotencyKey)
            shape = try container.decodeIfPresent(ScenarioShape.self, forKey: .shape)
            fingerprint = try container.decodeIfPresent(String.self, forKey: .fingerprint)
            skippedLines = try container.decodeIfPresent([Int].self, forKey: .skippedLines)
        }
    }

    /// The input and output a line records: step values have any shape, so they are read from
    /// the line as `JSONSerialization` parses it, apart from the envelope's `Decodable` fields.
    ///
    /// - Throws: ``JournalReader/Inconsistency`` when the line is not an object, or a value's
    ///   field is not of its form.
    static func values(in line: ArraySlice<UInt8>) throws(JournalReader.Inconsistency) -> (
        input: RecordedValue?, output: RecordedValue?
    ) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
            throw .init(text: "not a JSON object")
        }
        return (try RecordedValue(.input, in: object), try RecordedValue(.output, in: object))
    }
}
