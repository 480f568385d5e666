import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// Issue 10, part 6: a value marked `JournalConfidential` never reaches the journal in clear. It
/// is sealed by the run's sealer and opened on resume, or withheld and asked for again: the step
/// that made it is relaunched with the key of the attempt that succeeded.
extension JournalTests {
    @Suite struct ConfidentialValueTests {
        static let cardNumber = "4242424242424242"

        /// What a charge gives back: it holds the card number, so the journal must not keep it.
        struct Receipt: Codable, Sendable, Equatable, JournalConfidential {
            let card: String
            let amount: Int
        }

        /// An order that carries a receipt inside: confidential too, through its field.
        struct PaidOrder: Codable, Sendable, Equatable {
            let receipt: Receipt
            let placedAt: Date
        }

        /// Charges a card: side effects; records the key of each launch.
        final class ChargeOp: Op {
            let keys: LockedState<[IdempotencyKey?]>
            init(keys: LockedState<[IdempotencyKey?]>) { self.keys = keys }
            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Receipt>) {
                keys.withLock { $0.append(context.idempotencyKey) }
                Completion(retaining: self, context: context, onFinish: onFinish)
                    .succeed(Receipt(card: ConfidentialValueTests.cardNumber, amount: context.input))
            }
        }

        /// Ships the order: fails while `failing` is set.
        final class ShipOp: PureOp {
            let failing: Bool
            init(failing: Bool) { self.failing = failing }
            func launch(_ context: OpContext<Receipt>, onFinish: @escaping OnFinish<Int>) {
                let completion = Completion(retaining: self, context: context, onFinish: onFinish)
                failing ? completion.fail(TestError.broken) : completion.succeed(context.input.amount)
            }
        }

        private func checkout(keys: LockedState<[IdempotencyKey?]>, shipping: Bool) -> Scenario<Int, Int> {
            Scenario("Checkout") { chain in
                chain
                    .then(Step("Charge") { ChargeOp(keys: keys) })
                    .then(Step("Ship") { ShipOp(failing: !shipping) })
            }
        }

        /// Runs the checkout until shipping fails; returns the run and the charge's key.
        private func chargeThenFailToShip(_ store: RunStore) throws -> (RunID, IdempotencyKey) {
            let keys = LockedState<[IdempotencyKey?]>([])
            let scenario = checkout(keys: keys, shipping: false)
            let journal = try store.create(scenario: scenario)
            let result = run(scenario, 25, environment: OpEnvironment(observer: journal))
            #expect(result?.failure != nil)
            try journal.close()
            return (journal.runID, try #require(keys.withLock { $0.first ?? nil }))
        }

        private func text(of runID: RunID, in store: RunStore) throws -> String {
            try String(contentsOf: store.url(for: runID), encoding: .utf8)
        }

        @Test func withoutASealerTheValueIsWithheldAndItsStepAskedAgainWithTheSameKey() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (runID, key) = try chargeThenFailToShip(store)
                let text = try text(of: runID, in: store)
                #expect(!text.contains(Self.cardNumber))
                #expect(text.contains("Receipt is confidential and the run has no sealer"))

                let keys = LockedState<[IdempotencyKey?]>([])
                let scenario = checkout(keys: keys, shipping: true)
                let resumed = try store.resume(runID, scenario: scenario)
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(scenario, 25, environment: environment)?.success == 25)
                try resumed.close()
                #expect(keys.withLock { $0 } == [key], "the charge is asked again with the key that succeeded")
                #expect(!(try self.text(of: runID, in: store)).contains(Self.cardNumber))
            }
        }

        @Test func withASealerTheValueIsSealedAndReplayedWithoutRelaunching() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory, sealer: XORSealer(key: 0x5A))
                let (runID, _) = try chargeThenFailToShip(store)
                let text = try text(of: runID, in: store)
                #expect(!text.contains(Self.cardNumber))
                #expect(text.contains("\"outputSealed\""))

                let keys = LockedState<[IdempotencyKey?]>([])
                let scenario = checkout(keys: keys, shipping: true)
                let resumed = try store.resume(runID, scenario: scenario)
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(scenario, 25, environment: environment)?.success == 25)
                try resumed.close()
                #expect(keys.withLock { $0 }.isEmpty, "the charge's sealed receipt is replayed")
            }
        }

        /// Issue 26, point 4: a resume by id alone opens the run's sealed values with the store's
        /// sealer, as a resume against a scenario does.
        @Test func aResumeByIdAloneOpensTheSealedValuesWithTheStoresSealer() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory, sealer: XORSealer(key: 0x5A))
                let (runID, _) = try chargeThenFailToShip(store)
                let keys = LockedState<[IdempotencyKey?]>([])
                let scenario = checkout(keys: keys, shipping: true)
                let resumed = try store.resume(runID)
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(scenario, 25, environment: environment)?.success == 25)
                try resumed.close()
                #expect(keys.withLock { $0 }.isEmpty, "the charge's sealed receipt is replayed")
            }
        }

        /// A version 1 journal written before fields were sealed alone: the charge's receipt is
        /// sealed whole in `outputSealed`. Its run still resumes, and the receipt replays.
        static let wholeValueSealedJournal = [
            #"{"format":"operations.journal","version":1,"run":"20250101-120000-000-0000abcd","scenario":"Checkout","createdAt":"2025-01-01T12:00:00.000Z"}"#,
            #"{"event":"runStarted","at":1735732800000,"input":25}"#,
            #"{"event":"stepLaunched","at":1735732800001,"address":[{"index":0,"name":"Charge"}],"attempt":1,"purity":"sideEffects","idempotencyKey":"k-1","input":25}"#,
            #"{"event":"stepSucceeded","at":1735732800002,"address":[{"index":0,"name":"Charge"}],"attempt":1,"durationMs":1.0,"outputSealed":"WiF4OTsoPnhgeG5obmhuaG5obmhuaG5obmh4dng7NzUvNC54YGhvJw=="}"#,
            #"{"event":"stepLaunched","at":1735732800003,"address":[{"index":1,"name":"Ship"}],"attempt":1,"purity":"pure"}"#,
            #"{"event":"stepFailed","at":1735732800004,"address":[{"index":1,"name":"Ship"}],"attempt":1,"durationMs":1.0,"error":{"description":"broken","type":"TestError","transient":false,"cancelled":false},"willRetry":false}"#,
            #"{"event":"runFinished","at":1735732800005,"status":"failed","error":{"description":"broken","type":"TestError","transient":false,"cancelled":false}}"#,
        ]

        @Test func anOldJournalWithAWholeValueSealedOutputStillResumes() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory, sealer: XORSealer(key: 0x5A))
                let runID = try RunID(validating: "20250101-120000-000-0000abcd")
                try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
                try Data((Self.wholeValueSealedJournal.joined(separator: "\n") + "\n").utf8)
                    .write(to: store.url(for: runID))
                let keys = LockedState<[IdempotencyKey?]>([])
                let scenario = checkout(keys: keys, shipping: true)
                let resumed = try store.resume(runID)
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(scenario, 25, environment: environment)?.success == 25)
                try resumed.close()
                #expect(keys.withLock { $0 }.isEmpty, "the receipt sealed whole is opened and replayed")
                #expect(try store.load(runID).status == .succeeded)
            }
        }

        @Test func aValueSealedWithAnotherKeyIsReportedNotReplayed() throws {
            try withTemporaryDirectory { directory in
                let (runID, _) = try chargeThenFailToShip(
                    RunStore(stateDirectory: directory, sealer: XORSealer(key: 1)))
                let store = RunStore(stateDirectory: directory, sealer: XORSealer(key: 2))
                let keys = LockedState<[IdempotencyKey?]>([])
                let scenario = checkout(keys: keys, shipping: true)
                let resumed = try store.resume(runID, scenario: scenario)
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                let failure = try #require(run(scenario, 25, environment: environment)?.failure)
                try resumed.close()
                #expect("\(failure)".contains("sealed with another key"), "\(failure)")
                #expect(keys.withLock { $0 }.isEmpty, "nothing is charged on a guess")
            }
        }

        /// Issue 26, point 4: the secret inside is sealed (or withheld) alone; the rest of the
        /// value, a `Date` included, is written in clear.
        @Test func aSecretDeepInsideAValueIsSealedAloneInItsPlace() throws {
            try withTemporaryDirectory { directory in
                let order = PaidOrder(
                    receipt: Receipt(card: Self.cardNumber, amount: 3), placedAt: Date(timeIntervalSince1970: 0))
                let store = RunStore(stateDirectory: directory)
                let withheld = try store.create(scenario: Scenario<PaidOrder, PaidOrder>("Keep") { $0 }, input: order)
                try withheld.close()
                let withheldText = try text(of: withheld.runID, in: store)
                #expect(!withheldText.contains(Self.cardNumber))
                #expect(withheldText.contains(#""placedAt":-978307200"#), "\(withheldText)")
                #expect(withheldText.contains(#""receipt":{"withheld":"Receipt is confidential"#), "\(withheldText)")

                let sealing = RunStore(stateDirectory: directory, sealer: XORSealer(key: 7))
                let sealed = try sealing.create(scenario: Scenario<PaidOrder, PaidOrder>("Keep") { $0 }, input: order)
                try sealed.close()
                let sealedText = try text(of: sealed.runID, in: sealing)
                #expect(!sealedText.contains(Self.cardNumber))
                // Values are written with their keys sorted.
                let sealedValue =
                    #""inputWithConfidentialFields":{"value":{"placedAt":-978307200,"receipt":{"sealed":""#
                #expect(sealedText.contains(sealedValue), "\(sealedText)")
                #expect(sealedText.contains(#""}},"confidential":["/receipt"]}"#), "\(sealedText)")
                let record = try sealing.load(sealed.runID)
                #expect(try record.input(as: PaidOrder.self) == nil, "sealed, and no sealer given")
                #expect(try record.input(as: PaidOrder.self, sealer: XORSealer(key: 7)) == order)
                #expect(try store.load(withheld.runID).input(as: PaidOrder.self) == nil)
            }
        }
    }
}
