import Foundation
import Operations
import OperationsTesting
import Testing

/// A violation's `replay:` line is Swift: pasted into a test, it compiles and builds the schedule
/// that broke the flow. The expressions below are compiled here; the tests read them back from
/// this file's source, by the `// printed` mark after each, and compare them with what the
/// explorer prints.
struct ReplayLineTests {
    /// The payment of ExplorerTests whose operation drops its key: one lost answer charges twice.
    private static func explorer(sendsKey: Bool) -> FaultExplorer<Int, Int> {
        paymentExplorer(maxFaults: 1, sendsKey: sendsKey)
    }

    @Test func theReplayLineOfAViolationCompilesAndBreaksTheFlowAgain() throws {
        let explorer = Self.explorer(sendsKey: false)
        let violation = try #require(explorer.explore().violations.first, "the planted defect went unnoticed")
        let line = try #require(violation.description.split(separator: "\n").first { $0.contains("replay: ") })
        let printed = try #require(line.components(separatedBy: "replay: ").last)

        let report = explorer.replay(FaultSchedule([.init(boundary: 4, fault: .loseAnswer)]))  // printed

        #expect([printed] == (try Self.marked()).filter { $0.hasPrefix("explorer.replay(") }, "\(violation)")
        #expect(report.violations.first?.problems == violation.problems, "the pasted line breaks the flow the same way")
    }

    @Test func everyFaultPrintsAsTheSwiftThatBuildsIt() throws {
        let schedules = [
            FaultSchedule([]),  // printed
            FaultSchedule([.init(boundary: 0, fault: .failBeforeActing)]),  // printed
            FaultSchedule([.init(boundary: 1, fault: .loseAnswer), .init(boundary: 2, fault: .timeOut)]),  // printed
            FaultSchedule([.init(boundary: 3, fault: .serverError)]),  // printed
            FaultSchedule([.init(boundary: 4, fault: .tooManyRequests)]),  // printed
            FaultSchedule([.init(boundary: 5, fault: .diskFull), .init(boundary: 6, fault: .ioError)]),  // printed
            FaultSchedule([.init(boundary: 7, fault: .syncFailure), .init(boundary: 8, fault: .tornWrite)]),  // printed
            FaultSchedule([.init(boundary: 9, fault: .kill), .init(boundary: 10, fault: .interrupt)]),  // printed
            FaultSchedule([.init(boundary: 11, fault: .restartLater)]),  // printed
        ]
        #expect(Set(schedules.flatMap { $0.entries.map(\.fault) }) == Set(Fault.allCases), "every fault is here")
        let written = try Self.marked().filter { $0.hasPrefix("FaultSchedule(") }.map { String($0.dropLast()) }
        #expect(schedules.map(\.swiftSource) == written)
    }

    /// The expressions of this file marked `// printed`, as written: what follows `= ` or the
    /// indentation, up to the mark.
    private static func marked() throws -> [String] {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        return source.split(separator: "\n").compactMap { line -> String? in
            guard let mark = line.range(of: "  // printed", options: .backwards), line.hasSuffix("// printed") else {
                return nil
            }
            let code = line[..<mark.lowerBound].trimmingCharacters(in: .whitespaces)
            return code.range(of: " = ").map { String(code[$0.upperBound...]) } ?? code
        }
    }
}
