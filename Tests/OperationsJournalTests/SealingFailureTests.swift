import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// Issue 26, point 4: a sealer that fails leaves the value out of the file — never in clear —
/// and becomes the journal's error, a sentence without the secret, which stops the run before
/// it acts on a launch line the journal does not hold whole.
extension JournalTests {
    @Suite struct SealingFailureTests {
        /// A sealer whose key is gone; its error quotes what it was given, as a careless one might.
        struct BrokenSealer: JournalSealer {
            struct KeyUnavailable: Error, CustomStringConvertible {
                let plaintext: [UInt8]
                var description: String { "no key to seal \(String(decoding: plaintext, as: UTF8.self))" }
            }
            func seal(_ plaintext: [UInt8]) throws -> [UInt8] { throw KeyUnavailable(plaintext: plaintext) }
            func open(_ sealed: [UInt8]) throws -> [UInt8] { throw KeyUnavailable(plaintext: []) }
        }

        static let secret = "4111111111111111"

        struct Card: Codable, Sendable, JournalConfidential {
            let number: String
        }

        struct Payment: Codable, Sendable {
            let amount: Int
            let card: Card
        }

        @Test(arguments: [
            Card(number: secret) as any Sendable, Payment(amount: 5, card: Card(number: secret)),
        ])
        func aSealerThatThrowsBecomesTheJournalsErrorAndWritesNothingOfTheValue(value: any Sendable) throws {
            try withTemporaryDirectory { directory in
                let journal = try ScenarioJournal.create(
                    at: directory.appendingPathComponent("run.jsonl"), scenario: "Pay", sealer: BrokenSealer())
                journal.scenario(
                    ScenarioEvent(
                        kind: .stepLaunched, scenario: "Pay", address: StepAddress((0, "Charge")), attempt: 1,
                        duration: nil, value: value, purity: .sideEffects))
                let error = #expect(throws: JournalError.self) { try journal.flush() }
                guard case .sealingFailed(_, let type, let reason)? = error else {
                    Issue.record("expected a sealing failure, got \(String(describing: error))")
                    return
                }
                #expect(type == "Card")
                #expect(reason == "the sealer threw KeyUnavailable")
                #expect(!"\(error!)".contains(Self.secret), "the sentence names no secret")
                #expect(throws: JournalError.self) { try journal.close() }
                let text = try String(contentsOf: journal.url, encoding: .utf8)
                #expect(!text.contains(Self.secret), "the value is not written in clear")
                // Nothing is written after the failure: the launch whose value could not be sealed
                // never reaches the file, so no rerun reads a launch that never went out.
                #expect(!text.contains("stepLaunched"), "the journal ends before the failed line:\n\(text)")
            }
        }

        /// Charges a card: counts its launches, which a halted run must not reach.
        final class ChargeCard: Op {
            let launches: LockedState<Int>
            init(_ launches: LockedState<Int>) { self.launches = launches }
            func launch(_ context: OpContext<Card>, onFinish: @escaping OnFinish<Int>) {
                launches.withLock { $0 += 1 }
                Completion(retaining: self, context: context, onFinish: onFinish).succeed(1)
            }
        }

        @Test func aSealerThatThrowsStopsTheRunBeforeTheRequest() throws {
            try withTemporaryDirectory { directory in
                let launches = LockedState(0)
                let pay = Scenario<Card, Int>("Pay") { chain in
                    chain.then(Step("Charge", purity: .sideEffects) { ChargeCard(launches) })
                }
                let journal = try ScenarioJournal.create(
                    at: directory.appendingPathComponent("run.jsonl"), scenario: "Pay", sealer: BrokenSealer())
                let result = run(pay, Card(number: Self.secret), environment: OpEnvironment(observer: journal))
                #expect(launches.withLock { $0 } == 0, "the charge never went out")
                #expect((result?.failure as? StepFailure)?.rootCause is RunHalted)
                #expect(throws: JournalError.self) { try journal.close() }
            }
        }
    }
}
