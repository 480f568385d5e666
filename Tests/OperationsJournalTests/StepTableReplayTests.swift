import Foundation
import Operations
import OperationsTestSupport
import Testing

@testable import OperationsJournal

/// What a replay reads from a step's one record (its output, its attempts): only the latest
/// attempt's success is replayed, and a nested scenario is judged by its own steps.
extension JournalTests {
    @Suite struct StepTableReplayTests {
        private let header =
            #"{"format":"operations.journal","version":1,"run":"20250101-120000-000-00000001","scenario":"S","createdAt":"2025-01-01T12:00:00.000Z"}"#

        /// The record of a journal of the header and `lines`, as a resume reads it.
        private func record(_ lines: [String]) throws -> JournalRecord {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("steps.jsonl")
                try Data(([header] + lines).map { $0 + "\n" }.joined().utf8).write(to: url)
                return try ScenarioJournal.loadSkippingDamage(url)
            }
        }

        private static let step = StepAddress(path: [.init(index: 0, name: "A")])
        private static let address = #"[{"index":0,"name":"A"}]"#

        @Test func aStepLaunchedAgainAfterItSucceededIsLaunchedNotReplayed() throws {
            let succeeded = [
                #"{"event":"runStarted","at":1,"input":1}"#,
                #"{"event":"stepLaunched","at":2,"address":\#(Self.address),"attempt":1,"input":1}"#,
                #"{"event":"stepSucceeded","at":3,"address":\#(Self.address),"attempt":1,"output":"first"}"#,
            ]
            #expect(try JournalReplay(record(succeeded)).recordedOutput(at: Self.step, as: String.self) == "first")
            let relaunched = try record(
                succeeded + [#"{"event":"stepLaunched","at":4,"address":\#(Self.address),"attempt":1,"input":2}"#])
            #expect(try JournalReplay(relaunched).recordedOutput(at: Self.step, as: String.self) == nil)
            #expect(relaunched.step(at: Self.step)?.outcome == .interrupted)
        }

        @Test func aNestedScenarioIsNotInDoubtItselfWhileItsStepIs() throws {
            let outer = #"[{"index":0,"name":"Outer"}]"#
            let inner = #"[{"index":0,"name":"Outer"},{"index":0,"name":"Inner"}]"#
            let interrupted = try record([
                #"{"event":"runStarted","at":1,"input":1}"#,
                #"{"event":"stepLaunched","at":2,"address":\#(outer),"attempt":1,"purity":"sideEffects","input":1}"#,
                #"{"event":"stepLaunched","at":3,"address":\#(inner),"attempt":1,"purity":"sideEffects","input":1}"#,
            ])
            let replay = JournalReplay(interrupted)
            let container = StepAddress(path: [.init(index: 0, name: "Outer")])
            guard
                case .launch(idempotencyKey: nil) = try replay.resumption(
                    at: container, as: Int.self, purity: .sideEffects)
            else {
                Issue.record("the nested scenario was not launched again to reach its steps")
                return
            }
            let step = StepAddress(path: container.path + [.init(index: 0, name: "Inner")])
            #expect(throws: ResumeError.sideEffectsInDoubt(step: step)) {
                try replay.resumption(at: step, as: Int.self, purity: .sideEffects)
            }
        }
    }
}
