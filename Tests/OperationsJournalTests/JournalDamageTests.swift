import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

extension JournalTests {
    @Suite struct JournalDamageTests {
        private let validHeader =
            #"{"format":"operations.journal","version":1,"run":"20250101-120000-000-00000001","scenario":"S","createdAt":"2025-01-01T12:00:00.000Z"}"#

        /// Writes `bytes` to a file and loads it, returning the error it must throw.
        private func loadError(_ bytes: Data, in directory: URL) throws -> JournalError {
            let url = directory.appendingPathComponent("damaged.jsonl")
            try bytes.write(to: url)
            do {
                _ = try ScenarioJournal.load(url)
            } catch {
                #expect(!error.description.contains("DecodingError"))
                #expect(error.description.contains(url.path))
                return error
            }
            Issue.record("\(url.lastPathComponent) loaded although it is damaged")
            return .invalidRunID("")
        }

        @Test func randomBytesAreNotAJournal() throws {
            try withTemporaryDirectory { directory in
                var generator = SplitMix(seed: 42)
                for length in [1, 7, 100, 4096] {
                    let bytes = Data((0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
                    let error = try loadError(bytes, in: directory)
                    guard case .notAJournal = error else {
                        Issue.record("random bytes gave \(error)")
                        continue
                    }
                }
                let withNewlines = Data((0..<512).map { $0 % 37 == 0 ? 10 : UInt8(truncatingIfNeeded: $0 &* 151) })
                guard case .notAJournal = try loadError(withNewlines, in: directory) else {
                    Issue.record("random lines were accepted")
                    return
                }
            }
        }

        @Test(arguments: ["", "{\"name\":\"package\",\"version\":\"1.0\"}\n", "[1,2,3]\n", "\"text\"\n", "{}\n"])
        func foreignFilesAreNotAJournal(content: String) throws {
            try withTemporaryDirectory { directory in
                let error = try loadError(Data(content.utf8), in: directory)
                guard case .notAJournal = error else {
                    Issue.record("\(content.debugDescription) gave \(error)")
                    return
                }
            }
        }

        @Test func anotherFormatVersionIsNamedAsSuch() throws {
            try withTemporaryDirectory { directory in
                let header = validHeader.replacingOccurrences(of: #""version":1"#, with: #""version":99"#)
                let error = try loadError(Data((header + "\n").utf8), in: directory)
                let url = directory.appendingPathComponent("damaged.jsonl")
                #expect(error == .unsupportedVersion(url, found: 99, supported: 1))
                #expect(error.description.hasSuffix("is a journal of format version 99; this build reads version 1"))
            }
        }

        @Test(arguments: [
            ("{\"event\":\"stepLaunch", "not valid JSON"),
            ("{\"event\":\"stepLaunched\",\"at\":1}", "the field \"address\" is missing"),
            ("{\"at\":1}", "the field \"event\" is missing"),
            ("{\"event\":\"runFinished\",\"at\":1,\"status\":\"exploded\"}", "\"exploded\" is not how a run finishes"),
            (
                #"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"inputSealed":5}"#,
                "the field \"inputSealed\" is not valid"
            ),
            (
                #"{"event":"stepSucceeded","at":1,"address":[],"attempt":1,"outputWithConfidentialFields":{"value":1}}"#,
                "the field \"outputWithConfidentialFields\" is not valid"
            ),
        ])
        func aBadLineBeforeTheLastIsDamage(line: String, reason: String) throws {
            try withTemporaryDirectory { directory in
                let text =
                    [
                        validHeader, #"{"event":"runStarted","at":1,"input":1}"#, line,
                        #"{"event":"stepSkipped","at":2,"address":[]}"#,
                    ]
                    .joined(separator: "\n") + "\n"
                let error = try loadError(Data(text.utf8), in: directory)
                #expect(error == .damaged(directory.appendingPathComponent("damaged.jsonl"), line: 3, reason: reason))
            }
        }

        @Test func unknownEventsOfTheSameVersionAreSkipped() throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("future.jsonl")
                let text =
                    [validHeader, #"{"event":"runStarted","at":1,"input":1}"#, #"{"event":"noted","at":2}"#].joined(
                        separator: "\n") + "\n"
                try Data(text.utf8).write(to: url)
                #expect(try ScenarioJournal.load(url).status == .interrupted)
            }
        }

        /// Only the events that carry values read them: a value field elsewhere is not damage.
        @Test func aValueFieldOnAnEventWithoutValuesIsNotRead() throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("extra.jsonl")
                let text =
                    [
                        validHeader, #"{"event":"runStarted","at":1,"input":1}"#,
                        #"{"event":"stepSkipped","at":2,"address":[],"inputSealed":5}"#,
                        #"{"event":"stepSkipped","at":3,"address":[]}"#,
                    ]
                    .joined(separator: "\n") + "\n"
                try Data(text.utf8).write(to: url)
                #expect(try ScenarioJournal.load(url).damagedLines.isEmpty)
            }
        }

        @Test func aMissingFileIsAnIOError() throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("absent.jsonl")
                #expect(throws: JournalError.io(url, operation: "open", reason: "No such file or directory")) {
                    try ScenarioJournal.load(url)
                }
                let store = RunStore(stateDirectory: directory)
                let id = RunID.make()
                #expect(throws: JournalError.unknownRun(id, directory: store.directory)) { try store.load(id) }
                #expect(throws: JournalError.unknownRun(id, directory: store.directory)) { try store.resume(id) }
            }
        }

        @Test func aRecordedValueOfAnotherTypeFailsTheResumedStepClearly() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Types")
                let failing = ScriptedOps([.failure(.broken)])
                let before = Scenario<Int, String>("Types") { chain in
                    chain.then(Step("Describe") { DescribeOp() }).map { $0.count }.then(Step("Fail", failing.make)).map
                    { "\($0)" }
                }
                _ = run(before, 1, environment: OpEnvironment(observer: journal))
                try journal.close()

                // The scenario changed: step 0 now produces an Int where "#1" was recorded.
                let resumed = try store.resume(journal.runID)
                let after = Scenario<Int, Int>("Types") { chain in chain.then(Step("Describe") { DoubleOp() }) }
                let failure = try #require(
                    run(after, 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))?.failure
                        as? StepFailure)
                try resumed.close()
                let error = try #require(failure.error as? JournalError)
                #expect(
                    error
                        == .valueNotReadable(
                            step: StepAddress((0, "Describe")), type: "Int", reason: "the value is not Int"))
                #expect(
                    error.description
                        == "the recorded value of step 0.Describe cannot be read as Int: the value is not Int")
            }
        }

        @Test(arguments: ["", "../etc/passwd", "a/b", "run id", String(repeating: "a", count: 65), "é"])
        func textThatCannotBeARunIDIsRejected(text: String) {
            #expect(throws: JournalError.invalidRunID(text)) { try RunID(validating: text) }
        }
    }
}
