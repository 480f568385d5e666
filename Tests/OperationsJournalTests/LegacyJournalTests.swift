import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// Journals written by an earlier build of the journal still read and resume as they did: a
/// run that succeeded, one that failed, one with a step with side effects left in doubt, one
/// with confidential values sealed and one with them withheld, and one with a line damaged on
/// disk. The files are the test target's resources, in `Fixtures/` (``JournalFixtures``).
/// Changing how the journal writes must never strand a run already on disk.
extension JournalTests {
    @Suite struct LegacyJournalTests {
        // MARK: - The scenarios the fixtures were written by

        /// A value of most shapes `Codable` knows, the widest integers and escapes included.
        struct Rich: Codable, Sendable, Equatable {
            enum Choice: Codable, Sendable, Equatable {
                case none
                case pair(label: String, flag: Bool)
            }

            let text: String
            let widest: UInt64
            let lowest: Int64
            let ratio: Double
            let flag: Bool
            let missing: String?
            let when: Date
            let tags: [String]
            let byNumber: [Int: String]
            let nested: [[Int]]
            let choice: Choice
        }

        static func rich(_ input: Int) -> Rich {
            Rich(
                text: "quote \" slash / back \\ tab \t nl \n bell \u{7} é … 🙂 #\(input)", widest: .max, lowest: .min,
                ratio: 0.1, flag: true, missing: nil, when: Date(timeIntervalSince1970: 1_735_732_800.25),
                tags: ["a", "b"], byNumber: [1: "one", 2: "two"], nested: [[1, 2], []],
                choice: .pair(label: "l", flag: false))
        }

        /// What a step with side effects does when launched.
        enum Behaviour: Sendable {
            case succeed
            case fail
            /// Never finishes, as in a process killed while the request was out.
            case hang
        }

        /// Counts launches, keeps their keys and inputs, and behaves as told.
        final class Launches<Input: Sendable>: Sendable {
            private let behaviour: Behaviour
            private let seen = LockedState<[(key: IdempotencyKey?, input: Input)]>([])
            private let parked = LockedState<[any Sendable]>([])

            init(_ behaviour: Behaviour = .succeed) {
                self.behaviour = behaviour
            }

            var keys: [IdempotencyKey?] { seen.withLock { $0.map(\.key) } }
            var inputs: [Input] { seen.withLock { $0.map(\.input) } }

            func launch<Output>(_ context: OpContext<Input>, _ completion: Completion<Output>, _ output: Output) {
                seen.withLock { $0.append((context.idempotencyKey, context.input)) }
                switch behaviour {
                case .succeed: completion.succeed(output)
                case .fail: completion.fail(TestError.broken)
                case .hang: parked.withLock { $0.append(completion) }
                }
            }
        }

        /// Makes the rich value: side effects (a request that acts).
        final class MakeOp: Op {
            let launches: Launches<Int>
            init(_ launches: Launches<Int>) { self.launches = launches }
            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Rich>) {
                launches.launch(
                    context, Completion(retaining: self, context: context, onFinish: onFinish),
                    LegacyJournalTests.rich(context.input))
            }
        }

        /// Uses it: pure.
        final class UseOp: PureOp {
            let launches: Launches<Rich>
            init(_ launches: Launches<Rich>) { self.launches = launches }
            func launch(_ context: OpContext<Rich>, onFinish: @escaping OnFinish<Int>) {
                launches.launch(
                    context, Completion(retaining: self, context: context, onFinish: onFinish),
                    context.input.tags.count)
            }
        }

        static func richScenario(make: Launches<Int>, use: Launches<Rich>) -> Scenario<Int, Int> {
            Scenario("Rich") { chain in
                chain.then(Step("Make") { MakeOp(make) }).then(Step("Use") { UseOp(use) })
            }
        }

        static let cardNumber = "4242424242424242"

        /// Confidential as a whole.
        struct Receipt: Codable, Sendable, Equatable, JournalConfidential {
            let card: String
            let amount: Int
        }

        /// Holds a confidential value below its top level.
        struct PaidOrder: Codable, Sendable, Equatable {
            let reference: String
            let receipt: Receipt
            let placedAt: Date
        }

        final class ChargeOp: Op {
            let launches: Launches<Int>
            init(_ launches: Launches<Int>) { self.launches = launches }
            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Receipt>) {
                launches.launch(
                    context, Completion(retaining: self, context: context, onFinish: onFinish),
                    Receipt(card: LegacyJournalTests.cardNumber, amount: context.input))
            }
        }

        final class OrderOp: PureOp {
            let launches: Launches<Receipt>
            init(_ launches: Launches<Receipt>) { self.launches = launches }
            func launch(_ context: OpContext<Receipt>, onFinish: @escaping OnFinish<PaidOrder>) {
                launches.launch(
                    context, Completion(retaining: self, context: context, onFinish: onFinish),
                    PaidOrder(reference: "p-7", receipt: context.input, placedAt: Date(timeIntervalSince1970: 0)))
            }
        }

        final class ShipOp: PureOp {
            let launches: Launches<PaidOrder>
            init(_ launches: Launches<PaidOrder>) { self.launches = launches }
            func launch(_ context: OpContext<PaidOrder>, onFinish: @escaping OnFinish<Int>) {
                launches.launch(
                    context, Completion(retaining: self, context: context, onFinish: onFinish),
                    context.input.receipt.amount)
            }
        }

        static func checkoutScenario(charge: Launches<Int>, order: Launches<Receipt>, ship: Launches<PaidOrder>)
            -> Scenario<Int, Int>
        {
            Scenario("Checkout") { chain in
                chain
                    .then(Step("Charge") { ChargeOp(charge) })
                    .then(Step("Order") { OrderOp(order) })
                    .then(Step("Ship") { ShipOp(ship) })
            }
        }

        static let sealer = XORSealer(key: 0x5A)

        // MARK: - Reading the fixtures

        /// The fixture's bytes, put in a fresh store under the run id of its header.
        private func install(_ name: String, in directory: URL, sealer: (any JournalSealer)? = nil) throws -> (
            RunStore, RunID
        ) {
            let fixture = try JournalFixtures.url(name)
            let bytes = try Data(contentsOf: fixture)
            let header = try #require(bytes.split(separator: UInt8(ascii: "\n")).first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(header)) as? [String: Any])
            let id = try RunID(validating: try #require(object["run"] as? String))
            let store = RunStore(stateDirectory: directory, sealer: sealer)
            try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
            try bytes.write(to: store.url(for: id))
            return (store, id)
        }

        /// The run `id` resumed in `store`: `scenario` launched with `input`, replaying from its journal.
        private func resume<Input: Sendable, Output: Sendable>(
            _ id: RunID, in store: RunStore, _ scenario: Scenario<Input, Output>, _ input: Input
        ) throws -> Result<Output, any Error>? {
            let resumed = try store.resume(id)
            let result = run(scenario, input, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
            try resumed.close()
            return result
        }

        @Test func aRunThatSucceededReadsWithItsValuesExact() throws {
            try withTemporaryDirectory { directory in
                let (store, id) = try install("plain", in: directory)
                let record = try store.load(id)
                #expect(record.status == .succeeded)
                #expect(record.steps.map(\.outcome) == [.succeeded, .succeeded])
                #expect(try record.input(as: Int.self) == 3)
                #expect(try record.output(as: Int.self) == 2)
                #expect(record.damagedLines.isEmpty && !record.ignoredTornLine)
                #expect(try store.summaries().map { try $0.summary.get().status } == [RunStatus.succeeded])
            }
        }

        @Test func aRunThatFailedResumesReplayingTheRichValueExactly() throws {
            try withTemporaryDirectory { directory in
                let (store, id) = try install("failed", in: directory)
                let record = try store.load(id)
                #expect(record.status == .failed)
                #expect(record.failedStep == StepAddress((1, "Use")))
                let make = Launches<Int>()
                let use = Launches<Rich>()
                let result = try resume(id, in: store, Self.richScenario(make: make, use: use), 3)
                #expect(result?.success == 2)
                #expect(make.keys.isEmpty, "Make succeeded before and is replayed")
                #expect(use.inputs == [Self.rich(3)], "the value comes back as it was written, to the last bit")
                #expect(try store.load(id).status == .succeeded)
            }
        }

        @Test func aStepInDoubtIsRelaunchedWithTheKeyOfTheAttemptInDoubt() throws {
            try withTemporaryDirectory { directory in
                let (store, id) = try install("in-doubt", in: directory)
                let record = try store.load(id)
                #expect(record.status == .interrupted)
                let made = try #require(record.step(at: StepAddress((0, "Make"))))
                #expect(made.isInDoubt)
                let key = try #require(made.attempts.last?.idempotencyKey)
                let make = Launches<Int>()
                let use = Launches<Rich>()
                let result = try resume(id, in: store, Self.richScenario(make: make, use: use), 3)
                #expect(result?.success == 2)
                #expect(make.keys == [key], "the repeat carries the key of the attempt in doubt")
            }
        }

        @Test func sealedValuesOpenWithTheSealerAndReplay() throws {
            try withTemporaryDirectory { directory in
                let (store, id) = try install("sealed", in: directory, sealer: Self.sealer)
                let text = try String(contentsOf: store.url(for: id), encoding: .utf8)
                #expect(!text.contains(Self.cardNumber))
                #expect(text.contains("\"outputSealed\"") && text.contains("\"outputWithConfidentialFields\""))
                let (charge, order, ship) = (Launches<Int>(), Launches<Receipt>(), Launches<PaidOrder>())
                let result = try resume(
                    id, in: store, Self.checkoutScenario(charge: charge, order: order, ship: ship), 25)
                #expect(result?.success == 25)
                #expect(charge.keys.isEmpty && order.inputs.isEmpty, "both are opened and replayed")
                #expect(
                    ship.inputs
                        == [
                            PaidOrder(
                                reference: "p-7", receipt: Receipt(card: Self.cardNumber, amount: 25),
                                placedAt: Date(timeIntervalSince1970: 0))
                        ])
                #expect(!(try String(contentsOf: store.url(for: id), encoding: .utf8)).contains(Self.cardNumber))
            }
        }

        @Test func withheldValuesRelaunchTheirStepsWithTheSameKey() throws {
            try withTemporaryDirectory { directory in
                let (store, id) = try install("withheld", in: directory)
                let record = try store.load(id)
                let charged = try #require(record.step(at: StepAddress((0, "Charge"))))
                #expect(charged.outputNotKept?.contains("Receipt is confidential") == true)
                let ordered = try #require(record.step(at: StepAddress((1, "Order"))))
                #expect(ordered.outputNotKept?.contains("its confidential field /receipt was withheld") == true)
                let key = try #require(charged.attempts.last?.idempotencyKey)
                let (charge, order, ship) = (Launches<Int>(), Launches<Receipt>(), Launches<PaidOrder>())
                let result = try resume(
                    id, in: store, Self.checkoutScenario(charge: charge, order: order, ship: ship), 25)
                #expect(result?.success == 25)
                #expect(charge.keys == [key], "asked again with the key of the attempt that succeeded")
                #expect(!(try String(contentsOf: store.url(for: id), encoding: .utf8)).contains(Self.cardNumber))
            }
        }

        @Test func aDamagedLineIsNamedSkippedAndAcknowledged() throws {
            try withTemporaryDirectory { directory in
                let (store, id) = try install("damaged", in: directory)
                // Line 4 is Make's success, its output edited after it was written.
                let loaded = Result { () throws(JournalError) in try store.load(id) }
                guard case .failure(.damaged(_, let line, _)) = loaded else {
                    Issue.record("a damaged journal read as \(loaded)")
                    return
                }
                #expect(line == 4)
                let record = try store.loadSkippingDamage(id)
                #expect(record.damagedLines.map(\.line) == [4])
                #expect(record.damagedLines.first?.reason.contains("checksum") == true)
                let make = Launches<Int>()
                let use = Launches<Rich>()
                let scenario = Self.richScenario(make: make, use: use)
                // Make's launch is intact and carries its key: with its success lost, it is in
                // doubt, and relaunched with that key.
                let key = try #require(record.step(at: StepAddress((0, "Make")))?.attempts.last?.idempotencyKey)
                let resumed = try store.resume(id, scenario: scenario)
                let result = run(scenario, 3, environment: OpEnvironment(observer: resumed, replay: resumed.replay))
                try resumed.close()
                #expect(result?.success == 2)
                #expect(make.keys == [key], "relaunched with the key of the attempt whose end was lost")
                #expect(use.inputs == [Self.rich(3)])
                #expect(try store.load(id).status == .succeeded, "and the journal reads again")
            }
        }
    }
}
