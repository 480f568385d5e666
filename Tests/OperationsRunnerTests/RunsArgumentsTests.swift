import Foundation
import OperationsRunner
import Testing

/// The pieces `runs` and `prune` read their options with: moments, statuses, counts.
struct RunsArgumentsTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    @Test(arguments: [
        ("90s", 90.0), ("30m", 1_800), ("2h", 7_200), ("7d", 604_800), ("2w", 1_209_600), ("1h30m", 5_400),
        ("0s", 0),
    ])
    func durationsCountBackFromNow(text: String, seconds: TimeInterval) throws {
        let moment = try TimeArgument.moment(text, option: "--since", command: "runs", now: Self.now)
        #expect(moment == Self.now.addingTimeInterval(-seconds))
    }

    @Test(arguments: [
        ("2025-01-31", 1_738_281_600.0), ("2025-01-31T12:00:00Z", 1_738_324_800),
        ("2025-01-31T12:00:00.500Z", 1_738_324_800.5), ("2025-01-31T15:00:00+03:00", 1_738_324_800),
    ])
    func isoDatesAreMomentsInUTC(text: String, seconds: TimeInterval) throws {
        let moment = try TimeArgument.moment(text, option: "--since", command: "runs", now: Self.now)
        #expect(moment == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: ["", "7", "d", "7x", "-2h", "2h-", "yesterday", "2025-13-01", "9999999999d"])
    func anythingElseIsAUsageErrorWithASentence(text: String) {
        #expect {
            try TimeArgument.moment(text, option: "--older-than", command: "prune", now: Self.now)
        } throws: { error in
            guard let usage = error as? UsageError else { return false }
            return usage.message.hasPrefix("--older-than '")
                && usage.message.contains("is not a duration (30m, 2h, 7d)")
                && usage.hint(program: "chores") == "See 'chores prune --help'."
        }
    }

    @Test func statusesComeRepeatedOrSeparatedByCommas() throws {
        let parsed = try ParsedArguments(
            ["--status", "failed,cancelled", "--status=Interrupted"], spec: ListRuns<Chores>.spec, command: "runs")
        let status = try #require(ListRuns<Chores>.options.first { $0.name == "--status" })
        #expect(parsed.allValues(status) == ["failed,cancelled", "Interrupted"])
        #expect(parsed.value(status) == "Interrupted")
        let statuses = try ListedStatus.parse(
            parsed.allValues(status), allowed: ListedStatus.allCases, command: "runs")
        #expect(statuses == [.failed, .cancelled, .interrupted])
        #expect(try ListedStatus.parse([], allowed: ListedStatus.allCases, command: "runs") == nil)
    }

    @Test func countsReadTheSameInEveryLocale() {
        #expect(CountText.grouped(0) == "0")
        #expect(CountText.grouped(999) == "999")
        #expect(CountText.grouped(1_980) == "1,980")
        #expect(CountText.grouped(1_234_567) == "1,234,567")
        #expect(CountText.runs(1) == "1 run")
        #expect(CountText.runs(1_980, "older") == "1,980 older runs")
    }
}
