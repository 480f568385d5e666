import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// Issue 26, point 4: a value that holds one confidential field (an account number inside an
/// order) is journaled with the other fields in clear and the field sealed alone, so with a
/// sealer the whole value replays; without one the field alone is withheld, and its step runs
/// again on resume, saying why.
extension JournalTests {
    @Suite struct ConfidentialFieldTests {
        static let accountNumber = "DE89370400440532013000"

        struct AccountNumber: Codable, Sendable, Hashable, JournalConfidential {
            let iban: String
        }

        /// A clear object shaped like the journal's marker: the value's own, never taken for one.
        struct LooksSealed: Codable, Sendable, Hashable {
            let sealed: String
        }

        struct Order: Codable, Sendable, Hashable {
            let number: String
            let account: AccountNumber
            let amount: Double
            let lookalike: LooksSealed
            /// Keys that a JSON Pointer must escape.
            let byKey: [String: AccountNumber]
        }

        /// Places the order: side effects, so a relaunch carries the key of the attempt that
        /// succeeded; counts its launches.
        final class PlaceOrderOp: Op {
            let launches: LockedState<[IdempotencyKey?]>
            init(launches: LockedState<[IdempotencyKey?]>) { self.launches = launches }
            func launch(_ context: OpContext<String>, onFinish: @escaping OnFinish<Order>) {
                launches.withLock { $0.append(context.idempotencyKey) }
                Completion(retaining: self, context: context, onFinish: onFinish).succeed(ConfidentialFieldTests.order)
            }
        }

        /// Confirms the order it is handed: fails while `failing` is set; keeps what it got.
        final class ConfirmOp: PureOp {
            let failing: Bool
            let received: LockedState<[Order]>
            init(failing: Bool, received: LockedState<[Order]>) {
                self.failing = failing
                self.received = received
            }
            func launch(_ context: OpContext<Order>, onFinish: @escaping OnFinish<String>) {
                received.withLock { $0.append(context.input) }
                let completion = Completion(retaining: self, context: context, onFinish: onFinish)
                failing ? completion.fail(TestError.broken) : completion.succeed(context.input.number)
            }
        }

        static let order = Order(
            number: "o-1", account: AccountNumber(iban: accountNumber), amount: 12.5,
            lookalike: LooksSealed(sealed: "not a secret"),
            byKey: ["a/b~c": AccountNumber(iban: accountNumber)])

        private func scenario(launches: LockedState<[IdempotencyKey?]>, received: LockedState<[Order]>, failing: Bool)
            -> Scenario<String, String>
        {
            Scenario("Ordering") { chain in
                chain
                    .then(Step("PlaceOrder") { PlaceOrderOp(launches: launches) })
                    .then(Step("Confirm") { ConfirmOp(failing: failing, received: received) })
            }
        }

        /// Places the order and fails to confirm it; returns the run and the placing's key.
        private func placeThenFailToConfirm(_ store: RunStore) throws -> (RunID, IdempotencyKey) {
            let launches = LockedState<[IdempotencyKey?]>([])
            let scenario = scenario(launches: launches, received: LockedState([]), failing: true)
            let journal = try store.create(scenario: scenario)
            #expect(run(scenario, "cart", environment: OpEnvironment(observer: journal))?.failure != nil)
            try journal.close()
            return (journal.runID, try #require(launches.withLock { $0.first ?? nil }))
        }

        /// Resumes the run with a scenario that confirms; what was launched and what Confirm got.
        private func resume(_ runID: RunID, in store: RunStore) throws -> (
            launches: [IdempotencyKey?], received: [Order], result: String?
        ) {
            let launches = LockedState<[IdempotencyKey?]>([])
            let received = LockedState<[Order]>([])
            let scenario = scenario(launches: launches, received: received, failing: false)
            let resumed = try store.resume(runID)
            let result = run(scenario, "cart", environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            return (launches.withLock { $0 }, received.withLock { $0 }, try? result?.get())
        }

        @Test func withASealerTheFieldIsSealedAloneAndTheWholeValueReplays() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory, sealer: XORSealer(key: 0x33))
                let (runID, _) = try placeThenFailToConfirm(store)
                let text = try String(contentsOf: store.url(for: runID), encoding: .utf8)
                #expect(!text.contains(Self.accountNumber), "the account number never reaches the file in clear")
                // Values are written with their keys sorted.
                #expect(
                    text.contains(#""outputWithConfidentialFields":{"value":{"account":{"sealed":""#), "\(text)")
                #expect(text.contains(#""lookalike":{"sealed":"not a secret"},"number":"o-1"}"#), "\(text)")
                #expect(text.contains(#""confidential":["/account","/byKey/a~1b~0c"]"#), "\(text)")

                let resumed = try resume(runID, in: store)
                #expect(resumed.result == "o-1")
                #expect(resumed.launches.isEmpty, "the order is replayed, not placed again")
                #expect(resumed.received == [Self.order], "the whole order, account and lookalike as they were")
            }
        }

        @Test func withoutASealerTheFieldAloneIsWithheldAndItsStepRunsAgainSayingWhy() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (runID, key) = try placeThenFailToConfirm(store)
                let text = try String(contentsOf: store.url(for: runID), encoding: .utf8)
                #expect(!text.contains(Self.accountNumber))
                #expect(
                    text.contains(
                        #""account":{"withheld":"AccountNumber is confidential and the run has no sealer: not kept"}"#))
                #expect(text.contains(#""number":"o-1""#), "the other fields stay readable")

                let step = try #require(try store.load(runID).step(at: StepAddress((0, "PlaceOrder"))))
                #expect(
                    step.outputNotKept
                        == "its confidential field /account was withheld (AccountNumber is confidential and the run "
                        + "has no sealer: not kept), so the value cannot be rebuilt")

                let resumed = try resume(runID, in: store)
                #expect(resumed.result == "o-1")
                #expect(resumed.launches == [key], "placed again, with the key of the attempt that succeeded")
                #expect(resumed.received == [Self.order])
            }
        }

        @Test func aFieldSealedWithAnotherKeyIsReportedNotReplayed() throws {
            try withTemporaryDirectory { directory in
                let (runID, _) = try placeThenFailToConfirm(
                    RunStore(stateDirectory: directory, sealer: XORSealer(key: 1)))
                let store = RunStore(stateDirectory: directory, sealer: XORSealer(key: 2))
                let launches = LockedState<[IdempotencyKey?]>([])
                let scenario = scenario(launches: launches, received: LockedState([]), failing: false)
                let resumed = try store.resume(runID)
                let result = run(
                    scenario, "cart", environment: OpEnvironment(observer: resumed, replay: resumed.replay))
                try resumed.close()
                let failure = try #require(result?.failure)
                #expect("\(failure)".contains("field /account was sealed with another key"), "\(failure)")
                #expect(launches.withLock { $0 }.isEmpty, "nothing is placed on a guess")
            }
        }
    }
}
