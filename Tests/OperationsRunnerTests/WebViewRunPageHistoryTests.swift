import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

@testable import OperationsRunner

/// A run's page says of each step what `show` says (``HistoryText``): undos, a compensation in
/// doubt with its key's short form, the steps a rerun replayed, and polls, each line as `show`
/// prints it, escaped.
struct WebViewRunPageHistoryTests {
    /// Each line `show` prints of the run's steps, as the page's list items.
    static func steps(of html: String) -> [String] {
        html.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("<li>"), line.hasSuffix("</li>") else { return nil }
            return String(line.dropFirst(4).dropLast(5))
        }
    }

    /// A saga whose confirmation fails and whose release hangs (the process dies while undoing),
    /// then rerun: `Refund (undoes Charge)`, the release in doubt with its key, the steps the
    /// rerun replayed.
    @Test func undosKeysInDoubtAndReplayedStepsReadAsShowPrintsThem() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let journal = try store.create(scenario: "Saga")
            let first = EffectLedger(["Confirm": [.fail(.broken)], "Release": [.hang]])
            saga(first).launch(OpContext(1, environment: OpEnvironment(observer: journal)), onFinish: { _ in })
            try journal.close()
            let interrupted = RunHistory(try store.load(journal.runID))
            let before = RunPage(history: interrupted).html
            let expected = HistoryText(history: interrupted).lines.map { HTMLEscaping.text($0.text) }
            #expect(Self.steps(of: before) == expected, "\(before)")
            let key = try #require(first.launches.last?.key)
            #expect(
                before.contains("Release (undoes Reserve): interrupted — in doubt: it may have acted; ")
                    && before.contains("(\(key.redacted))"), "the key's short form: \(before)")
            #expect(!before.contains(key.rawValue), "never the whole key: \(before)")
            #expect(before.contains("Refund (undoes Charge): succeeded"), "\(before)")

            let resumed = try store.resume(journal.runID)
            _ = run(
                saga(EffectLedger(["Confirm": [.fail(.broken)]])), 1,
                environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            let rerun = RunHistory(try store.load(journal.runID))
            let after = RunPage(history: rerun).html
            #expect(
                Self.steps(of: after) == HistoryText(history: rerun).lines.map { HTMLEscaping.text($0.text) },
                "\(after)")
            #expect(after.contains("Reserve: replayed from the journal"), "\(after)")
        }
    }

    /// A status that never settles.
    final class StatusOp: PureOp {
        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Bool>) {
            Completion(retaining: self, context: context, onFinish: onFinish).succeed(false)
        }
    }

    /// A polled step out of polls: its launches read as polls, as `show` numbers them.
    @Test func pollsReadAsShowPrintsThem() throws {
        try withTemporaryDirectory { directory in
            let store = RunStore(stateDirectory: directory)
            let scenario = Scenario<Int, Bool>("Settle") { chain in
                chain.then(Step("Status") { StatusOp() }, repeatingEvery: .zero, until: { $0 }, atMost: 3)
            }
            let journal = try store.create(scenario: scenario)
            _ = run(scenario, 1, environment: OpEnvironment(observer: journal))
            try journal.close()
            let history = RunHistory(try store.load(journal.runID))
            let html = RunPage(history: history).html
            #expect(
                Self.steps(of: html) == HistoryText(history: history).lines.map { HTMLEscaping.text($0.text) },
                "\(html)")
            #expect(html.contains("<li>    poll 3: succeeded"), "\(html)")
            #expect(!html.contains("attempt 1"), "\(html)")
        }
    }
}
