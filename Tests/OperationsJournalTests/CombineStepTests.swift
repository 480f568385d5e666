import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

extension JournalTests {
    /// `then(_:input:combine:)` hands a later step an earlier value without the operations in
    /// between carrying it; a resumed run replays the step's own output and combines again.
    @Suite struct CombineStepTests {
        struct Order: Sendable, Codable, Equatable {
            let id: Int
            let total: Int
        }

        struct Paid: Sendable, Codable, Equatable {
            let order: Order
            let receipt: Int
        }

        private func checkout(pay: RecordingOps, confirm: RecordingOps) -> Scenario<Order, Int> {
            Scenario("Checkout") { chain in
                chain
                    .then(Step("Pay", pay.make), input: \.total) { order, receipt in
                        Paid(order: order, receipt: receipt)
                    }
                    .map { $0.order.id * 1000 + $0.receipt }
                    .then(Step("Confirm", confirm.make))
            }
        }

        @Test func theStepGetsPartOfTheValueAndTheNextValueKeepsTheRest() throws {
            let pay = RecordingOps()
            let confirm = RecordingOps()
            let result = run(
                checkout(pay: pay, confirm: confirm), Order(id: 7, total: 41), environment: OpEnvironment())
            #expect(result?.success == 7043)  // receipt 42, then Confirm adds one
            #expect(pay.launches == [41])
            #expect(checkout(pay: pay, confirm: confirm).shape.steps.map(\.conditional) == [false, false])
        }

        @Test func aResumedRunReplaysTheStepAndCombinesAgain() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let pay = RecordingOps()
                let failingConfirm = RecordingOps([.failure(.broken)])
                let journal = try store.create(scenario: checkout(pay: pay, confirm: failingConfirm))
                _ = run(
                    checkout(pay: pay, confirm: failingConfirm), Order(id: 7, total: 41),
                    environment: OpEnvironment(observer: journal))
                try journal.close()

                let confirm = RecordingOps()
                let resumed = try store.resume(journal.runID, scenario: checkout(pay: pay, confirm: confirm))
                let result = run(
                    checkout(pay: pay, confirm: confirm), Order(id: 7, total: 41),
                    environment: OpEnvironment(observer: resumed, replay: resumed.replay))
                try resumed.close()
                #expect(result?.success == 7043)
                #expect(pay.launches == [41], "Pay was replayed, not launched again")
                #expect(confirm.launches == [7042])
            }
        }
    }
}
