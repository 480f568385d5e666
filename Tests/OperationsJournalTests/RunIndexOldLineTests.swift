import Foundation
import Operations
import OperationsTestSupport
import Testing

@testable import OperationsJournal

/// Issue 36: a line an older build wrote in the run index is not trusted for what that build did
/// not derive. A run killed while its step waited to retry names that step; an index written by
/// a build that left it out (`-`) is read as stale and the run derived again from its journal,
/// though the journal did not change.
struct RunIndexOldLineTests {
    @Test func anOldLineWithoutTheStepOfARunKilledInARetryWaitIsDerivedAgain() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            var journal: ScenarioJournal? = try store.create(scenario: "Doubling")
            let address = StepAddress((0, "Double"))
            journal?.scenario(
                ScenarioEvent(
                    kind: .stepLaunched, scenario: "Doubling", address: address, attempt: 1, duration: nil, value: 1))
            journal?.scenario(
                ScenarioEvent(
                    kind: .stepFailed(OpError.timedOut, willRetry: true, delay: .seconds(5)), scenario: "Doubling",
                    address: address, attempt: 1, duration: nil, value: nil))
            try journal?.flush()
            // Killed in its retry wait: the process lets go of the journal without its end.
            journal = nil
            #expect(try store.summaries().first?.summary.get().failedStep == address)

            // The index as the build before wrote it: its version, and no step for this run.
            let index = store.directory.appendingPathComponent(RunIndex.fileName)
            let written = try String(contentsOf: index, encoding: .utf8)
            let line = try #require(written.split(separator: "\n").dropFirst().first)
            var fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            #expect(fields[7] == "@0:Double", "\(line)")
            fields[7] = ""
            let body = fields.joined(separator: "\t") + "\n"
            let sum = LineChecksum.hex(LineChecksum.adler32(Array(body.utf8)))
            let header = #"{"count":1,"format":"operations.run-index","sum":"\#(sum)","version":4}"#
            try Data((header + "\n" + body).utf8).write(to: index)

            let listed = try #require(try store.summaries().first?.summary.get())
            #expect(listed.status == .interrupted)
            #expect(listed.failedStep == address, "derived again from the journal, not `-` from the old line")
            let rewritten = try String(contentsOf: index, encoding: .utf8)
            #expect(rewritten.contains("\t@0:Double\t"), "the line is written again once: \(rewritten)")
        }
    }
}
