import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

extension JournalTests {
    /// Every journal line ends with a checksum, so a line damaged on disk is named, not replayed,
    /// even when it still reads as JSON.
    @Suite struct JournalChecksumTests {
        /// A journaled run of two steps, `input + 1` each; its file's lines.
        private func journaledRun(in directory: URL) throws -> (URL, [String]) {
            let store = RunStore(stateDirectory: directory)
            let scenario = Scenario<Int, Int>("S") { chain in
                chain.then(Step("A", RecordingOps().make)).then(Step("B", RecordingOps().make))
            }
            let journal = try store.create(scenario: scenario)
            _ = run(scenario, 41, environment: OpEnvironment(observer: journal))
            try journal.close()
            let text = try String(contentsOf: journal.url, encoding: .utf8)
            return (journal.url, text.split(separator: "\n").map(String.init))
        }

        private func damage(_ error: any Error) -> (line: Int, reason: String)? {
            guard case .damaged(_, let line, let reason) = error as? JournalError else { return nil }
            return (line, reason)
        }

        @Test func everyLineEndsWithAChecksumAndAnIntactJournalReads() throws {
            try withTemporaryDirectory { directory in
                let (url, lines) = try journaledRun(in: directory)
                #expect(lines.count >= 6)
                for line in lines {
                    #expect(line.range(of: #","sum":"[0-9a-f]{8}"\}$"#, options: .regularExpression) != nil, "\(line)")
                }
                #expect(try ScenarioJournal.load(url).status == .succeeded)
            }
        }

        @Test func aValueChangedOnDiskIsDamageOnItsLineAlthoughItStillParses() throws {
            try withTemporaryDirectory { directory in
                let (url, lines) = try journaledRun(in: directory)
                // The first step's output 42 becomes 43: valid JSON, a different value.
                let index = try #require(
                    lines.firstIndex { $0.contains("\"stepSucceeded\"") && $0.contains("\"output\":42") })
                var changed = lines
                changed[index] = changed[index].replacingOccurrences(of: "\"output\":42", with: "\"output\":43")
                try (changed.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
                #expect {
                    try ScenarioJournal.load(url)
                } throws: { error in
                    guard let (line, reason) = damage(error) else { return false }
                    return line == index + 1 && reason.contains("checksum does not match")
                }
            }
        }

        @Test func anInvalidUTF8ByteInAMiddleLineNamesTheLineAndWhy() throws {
            try withTemporaryDirectory { directory in
                let (url, lines) = try journaledRun(in: directory)
                var bytes = Array(try Data(contentsOf: url))
                // A byte of the third line's event name becomes 0xFF.
                let thirdLineStart = lines[0].utf8.count + 1 + lines[1].utf8.count + 1
                bytes[thirdLineStart + 4] = 0xFF
                try Data(bytes).write(to: url)
                #expect {
                    try ScenarioJournal.load(url)
                } throws: { error in
                    guard let (line, reason) = damage(error) else { return false }
                    return line == 3 && reason.contains("checksum")
                        && !error.localizedDescription.contains("Dictionary")
                }
            }
        }

        @Test func aDamagedHeaderIsNamedAsLineOne() throws {
            try withTemporaryDirectory { directory in
                let (url, lines) = try journaledRun(in: directory)
                var changed = lines
                changed[0] = changed[0].replacingOccurrences(of: "\"scenario\":\"S\"", with: "\"scenario\":\"T\"")
                try (changed.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
                #expect { try ScenarioJournal.load(url) } throws: { damage($0)?.line == 1 }
            }
        }

        @Test func aChecksumThatIsNotHexIsDamageAndLinesWithoutOneStillRead() throws {
            try withTemporaryDirectory { directory in
                let (url, lines) = try journaledRun(in: directory)
                var changed = lines
                let last = lines.count - 1
                changed[last] = String(changed[last].dropLast(10)) + "zzzzzzzz\"}"
                try (changed.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
                #expect { try ScenarioJournal.load(url) } throws: { damage($0)?.line == last + 1 }

                // A journal written before lines had checksums: every sum removed.
                let unsummed = lines.map {
                    $0.replacingOccurrences(of: #","sum":"[0-9a-f]{8}""#, with: "", options: .regularExpression)
                }
                try (unsummed.joined(separator: "\n") + "\n").write(to: url, atomically: false, encoding: .utf8)
                #expect(try ScenarioJournal.load(url).status == .succeeded)
            }
        }
    }
}
