import Foundation
import Operations

/// The journal's on-disk format: the names of its fields and events, declared once for the
/// writer and the reader, and the shapes of its lines as read back.
///
/// The format itself — the header, each event's line, values in clear, sealed or withheld, the
/// line's place and checksum, the sync mark, and what a reader skips — is described once, in
/// Docs/Architecture.md ("The journal format"). Unknown event names are skipped by readers, so
/// version 1 can gain events without breaking older readers; anything else changes ``version``.
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
        /// A step failed for good and the run began undoing its finished steps.
        case compensating
        /// Where a polled step's polling stands: as it begins, and before each wait between polls.
        case polling
        /// The scenario at `address` took an event from outside and reacted (`handled`).
        case eventHandled
        case runFinished

        /// Whether lines of this event may record a step's or the run's input or output.
        var carriesValues: Bool {
            switch self {
            case .runStarted, .stepLaunched, .stepSucceeded, .runFinished: true
            case .resumed, .stepFailed, .stepSkipped, .stepReplayed, .compensating, .polling, .eventHandled: false
            }
        }
    }

    /// The fields that say where a line stands, written last before its checksum on every line
    /// since journals could tell when they lost lines: `"seq"`, the line's number in the file
    /// (the header is 1), and on every line after the header `"prev"`, the checksum of the line
    /// before it. Read by ``LinePosition``; journals without them read as before.
    enum Position {
        static let sequence = "seq"
        static let previous = "prev"
    }

    /// The sync mark beside a journal, `<journal>.synced` (``SyncMark``): the number of the last
    /// line synced to disk and that line's checksum.
    enum Mark {
        static let fileExtension = "synced"
        static let line = "synced"
        static let checksum = "last"
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

    /// A line's fields as `Decodable` reads them, and the values it records, read by the same
    /// decoder so that the line is parsed once.
    @dynamicMemberLookup
    struct Decoded<Fields: Decodable>: Decodable {
        let fields: Fields
        /// The recorded input and output, if the line carries them, or why a value's field is not
        /// of its form: held apart, since only the lines that carry values read them
        /// (``Event/carriesValues``).
        let values: RecordedValues

        init(fields: Fields, values: RecordedValues) {
            (self.fields, self.values) = (fields, values)
        }

        init(from decoder: any Decoder) throws {
            fields = try Fields(from: decoder)
            values = RecordedValues(from: try decoder.container(keyedBy: ComparableJSON.AnyKey.self))
        }

        subscript<T>(dynamicMember field: KeyPath<Fields, T>) -> T { fields[keyPath: field] }
    }

    /// The first line, with the run's input.
    typealias Header = Decoded<HeaderFields>

    struct HeaderFields: Decodable {
        let format: String?
        let version: Int?
        let run: String?
        let scenario: String?
        let createdAt: String?
        let scenarioVersion: Int?
        let fingerprint: String?
        let shape: ScenarioShape?
        let settings: [String: String]?
        /// For a run made by `rerun ID --from STEP`: the run and step it came from. Optional,
        /// so version 1 readers that predate it read the journal as a plain run.
        let rerunOf: RerunOrigin?
    }

    /// Just enough of the first line to tell a journal from another JSON file.
    struct Signature: Decodable {
        let format: String?
        let version: Int?
    }

    /// An event line; which fields are present depends on ``EventFields/event``.
    typealias EventLine = Decoded<EventFields>

    struct EventFields: Decodable {
        let event: String
        let at: Int64
        /// The step's address as its components, `[{"index":0,"name":"AuthScenario"},…]`.
        let address: [StepAddress.Component]?
        let attempt: Int?
        let durationMs: Double?
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
        /// On `polling`: when the polling began and the next poll is due (milliseconds since
        /// 1970, on the run's wall clock), how many polls had answered "not done", and how long
        /// the wait was in seconds.
        let began: Int64?
        let polls: Int?
        let nextPollAt: Int64?
        let waitSeconds: Double?
        /// On `eventHandled`: the event, the boundary, the reaction and what it launched.
        let handled: HandledEvent?
    }

    /// The input and output a line records, read with the line's other fields: step values
    /// have any shape, so they are read as JSON of any form (``ComparableJSON/Decoded``).
    struct RecordedValues {
        let input: RecordedValue?
        let output: RecordedValue?
        /// Why a value's field is not of its form; the input's first.
        let problem: JournalReader.Inconsistency?

        init(from line: KeyedDecodingContainer<ComparableJSON.AnyKey>) {
            var problem: JournalReader.Inconsistency?
            var input: RecordedValue?
            var output: RecordedValue?
            do {
                input = try RecordedValue(.input, in: line)
                output = try RecordedValue(.output, in: line)
            } catch {
                problem = error
            }
            (self.input, self.output, self.problem) = (input, output, problem)
        }

        /// The values, or the problem with them.
        func read() throws(JournalReader.Inconsistency) -> (input: RecordedValue?, output: RecordedValue?) {
            if let problem { throw problem }
            return (input, output)
        }
    }
}

extension JournalFormat.Decoded where Fields == JournalFormat.EventFields {
    var address: StepAddress? { fields.address.map(StepAddress.init(path:)) }
}
