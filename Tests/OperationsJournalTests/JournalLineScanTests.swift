import Foundation
import Operations
import OperationsTestSupport
import Testing

@testable import OperationsJournal

extension JournalTests {
    /// The journal's own line reader (``JournalReader/Scanner``) says of every line what
    /// `JSONDecoder` says, or leaves the line to it; bad lines in real files read as before.
    @Suite struct JournalLineScanTests {
        private let validHeader =
            #"{"format":"operations.journal","version":1,"run":"20250101-120000-000-00000001","scenario":"S","createdAt":"2025-01-01T12:00:00.000Z"}"#

        /// What the scanner reads of `line`, checked against `JSONDecoder`: `true` when it took it.
        @discardableResult
        private func readAlike(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
            readAlike(ArraySlice(Array(line.utf8)), sourceLocation: sourceLocation)
        }

        @discardableResult
        private func readAlike(_ line: ArraySlice<UInt8>, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
            let decoder = JSONDecoder()
            let decoded = try? decoder.decode(JournalFormat.EventLine.self, from: Data(line))
            guard let scanned = JournalFormat.EventLine(scanning: line, decoder: decoder) else { return false }
            guard let decoded else {
                Issue.record(
                    "the scanner read a line JSONDecoder refuses: \(String(decoding: line, as: UTF8.self))",
                    sourceLocation: sourceLocation)
                return true
            }
            #expect(String(describing: scanned) == String(describing: decoded), sourceLocation: sourceLocation)
            #expect(scanned.values.input == decoded.values.input, sourceLocation: sourceLocation)
            #expect(scanned.values.output == decoded.values.output, sourceLocation: sourceLocation)
            #expect(scanned.values.problem?.text == decoded.values.problem?.text, sourceLocation: sourceLocation)
            return true
        }

        @Test(arguments: ["plain", "sealed", "failed", "withheld", "in-doubt", "damaged"])
        func everyLineOfTheOldJournalsReadsAsJSONDecoderReadsIt(fixture: String) throws {
            let url = try JournalFixtures.url(fixture)
            let lines = JournalReader.split(Array(try Data(contentsOf: url))).complete.dropFirst()
            let taken = lines.filter { readAlike($0) }.count
            // Most of a journal's lines are of its own form: the scanner must take them.
            #expect(taken * 2 > lines.count, "\(taken) of \(lines.count) lines taken")
        }

        @Test(arguments: [
            #"{"event":"stepLaunched","at":1,"address":[{"index":0,"name":"A"}],"attempt":1,"purity":"pure","input":{"b":1,"a":[true,false,null,"x"]}}"#,
            #"{"event":"stepSucceeded","at":2,"address":[{"index":0,"name":"A"}],"attempt":1,"durationMs":1.25,"output":"é 🙂"}"#,
            #"{"event":"stepLaunched","at":3,"address":[{"index":1,"name":"B"},{"index":0,"name":"C"}],"attempt":2,"purity":"sideEffects","idempotencyKey":"k1","inputNotRecorded":"not kept"}"#,
            #"{"event":"stepFailed","at":4,"address":[{"index":0,"name":"A"}],"attempt":1,"error":{"description":"no","type":"E","transient":true,"cancelled":false},"willRetry":true}"#,
            #"{"event":"polling","at":5,"address":[],"began":1,"polls":2,"nextPollAt":9,"waitSeconds":0.5}"#,
            #"{"event":"runFinished","at":6,"status":"succeeded","durationMs":3,"output":null,"seq":9,"prev":"00000000","sum":"00000000"}"#,
            #"{"event":"resumed","at":7,"session":2,"skippedLines":[3,4]}"#,
            #" { "event" : "stepSkipped" , "at" : 8 , "address" : [ ] } "#,
        ])
        func theJournalsOwnLinesAreTaken(line: String) {
            #expect(readAlike(line))
        }

        @Test(arguments: [
            // Numbers only JSONDecoder reads the same way; escaped strings and keys.
            #"{"event":"stepSucceeded","at":1,"address":[],"output":{"x":0.1,"y":1e3,"z":18446744073709551615,"w":-0}}"#,
            #"{"event":"stepSucceeded","at":1,"address":[],"output":"a\"b\\c\n\u00e9\ud83d\ude42"}"#,
            #"{"event":"stepSucceeded","at":1,"address":[],"output":{"a\u0062":1,"ab":2}}"#,
            #"{"event":"stepSucceeded","at":1,"address":[],"output":{"a":1,"a":2}}"#,
            #"{"event":"stepSucceeded","at":1,"address":[],"outputSealed":5}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":1e999}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"inputNotRecorded":null,"output":1}"#,
            // Fields not of their form, unknown or repeated: left to JSONDecoder, which says why.
            #"{"event":"stepLaunched","at":"1","address":[]}"#,
            #"{"event":"stepLaunched","at":1.5,"address":[]}"#,
            #"{"event":"stepLaunched","at":99999999999999999999,"address":[]}"#,
            #"{"event":"stepLaunched","at":1,"address":[{"index":0}]}"#,
            #"{"event":"stepLaunched","at":1,"address":[{"index":0,"name":"A","extra":1}]}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"purity":"impure"}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"idempotencyKey":""}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"willRetry":1}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"newField":1}"#,
            #"{"event":"stepLaunched","event":"stepLaunched","at":1,"address":[]}"#,
            #"{"event":"stepFailed","at":1,"address":[],"error":{"type":"E"}}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"inputWithConfidentialFields":{"value":1,"confidential":[]}}"#,
            // Not JSON.
            #"{"event":"stepLaunched","at":1,"address":[]"#,
            #"{"event":"stepLaunched","at":1,"address":[],}"#,
            #"{"event":"stepLaunched","at":01,"address":[]}"#,
            #"{"event":"stepLaunched","at":1,"address":[]} x"#,
            #"{"event":'stepLaunched',"at":1,"address":[]}"#,
            #"{"event":"step\x","at":1,"address":[]}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":tru}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":-}"#,
            #"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":1.}"#,
            "",
            "{",
            "[]",
        ])
        func otherLinesReadAsJSONDecoderReadsThem(line: String) {
            readAlike(line)
        }

        @Test func controlCharactersAndInvalidUTF8AreLeftToJSONDecoder() {
            let prefix = Array(#"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":""#.utf8)
            for hostile: [UInt8] in [[0x00], [0x09], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80]] {
                let line = prefix + hostile + Array(#""}"#.utf8)
                #expect(!readAlike(ArraySlice(line)), "\(hostile) was taken")
            }
            #expect(readAlike(ArraySlice(prefix + [0xC3, 0xA9] + Array(#""}"#.utf8))))
        }

        // MARK: - Bad lines in real files

        /// Writes the header, a start, `line` and a line after it, and loads the file.
        private func load(_ line: [UInt8], in directory: URL) throws -> Result<JournalRecord, JournalError> {
            let url = directory.appendingPathComponent("lines.jsonl")
            var bytes = Array((validHeader + "\n" + #"{"event":"runStarted","at":1,"input":1}"# + "\n").utf8)
            bytes += line + [UInt8(ascii: "\n")]
            bytes += Array(#"{"event":"stepSkipped","at":2,"address":[]}"#.utf8) + [UInt8(ascii: "\n")]
            try Data(bytes).write(to: url)
            do {
                return .success(try ScenarioJournal.load(url))
            } catch {
                return .failure(error)
            }
        }

        /// The damage `JSONDecoder` finds in `line`, as the reader reported it before the scanner.
        private func damage(_ line: [UInt8], in directory: URL) -> JournalError {
            let reason: String
            do {
                // A value not of its form is held by the line, and read as damage.
                let event = try JSONDecoder().decode(JournalFormat.EventLine.self, from: Data(line))
                reason = event.values.problem?.text ?? "(no damage)"
            } catch {
                reason = RecordedValue.explain(error)
            }
            return .damaged(directory.appendingPathComponent("lines.jsonl"), line: 3, reason: reason)
        }

        @Test func aLineCutShortBeforeTheLastIsDamage() throws {
            try withTemporaryDirectory { directory in
                let whole = Array(
                    #"{"event":"stepLaunched","at":1,"address":[{"index":0,"name":"A"}],"attempt":1,"input":{"a":[1,2]}}"#
                        .utf8)
                for length in [1, 10, 40, 60, whole.count - 1] {
                    let cut = Array(whole.prefix(length))
                    #expect(throws: damage(cut, in: directory)) { try load(cut, in: directory).get() }
                }
            }
        }

        @Test func hostileLinesAreDamageWithoutACrash() throws {
            try withTemporaryDirectory { directory in
                let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
                let hostile: [[UInt8]] = [
                    Array((#"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":"# + nested + "}").utf8),
                    Array(#"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":"\#u{0}"}"#.utf8),
                    Array(#"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":""#.utf8) + [0xFF, 0xFE]
                        + Array(#""}"#.utf8),
                    Array(#"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":"\ud800"}"#.utf8),
                    Array(repeating: UInt8(ascii: "{"), count: 50_000),
                ]
                for line in hostile {
                    let expected = damage(line, in: directory)
                    #expect(throws: expected) { try load(line, in: directory).get() }
                }
            }
        }

        @Test func anOversizedValueReadsWhole() throws {
            try withTemporaryDirectory { directory in
                let text = String(repeating: "0123456789abcdef", count: 256 * 1024)
                let line = Array(
                    #"{"event":"stepLaunched","at":1,"address":[],"attempt":1,"input":{"big":"\#(text)"}}"#.utf8)
                let record = try load(line, in: directory).get()
                #expect(record.damagedLines.isEmpty)
                let decoded = try JSONDecoder().decode(JournalFormat.EventLine.self, from: Data(line))
                #expect(
                    JournalFormat.EventLine(scanning: ArraySlice(line), decoder: JSONDecoder())?.values.input
                        == decoded.values.input)
            }
        }
    }
}
