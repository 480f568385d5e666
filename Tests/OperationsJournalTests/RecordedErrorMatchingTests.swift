import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

/// An app's own error survives the journal well enough to match by type: a `Codable` error is
/// kept with its value and decoded back, any error matches by its type's name with its module,
/// and journals from before values were kept still read.
extension JournalTests {
    @Suite struct RecordedErrorMatchingTests {
        enum OnboardingError: Error, Codable, Equatable {
            case underage(minimumAge: Int)
            case nameTaken
        }

        /// Another `Codable` error with the same cases: a match by type must tell it apart.
        enum OtherError: Error, Codable, Equatable {
            case underage(minimumAge: Int)
            case nameTaken
        }

        /// A secret no error may carry into the journal in clear.
        struct Code: Codable, Sendable, JournalConfidential {
            let digits: String
        }

        /// Its words hold no secret; its value does.
        struct WrongCode: Error, Codable, CustomStringConvertible {
            let code: Code
            var description: String { "wrong code" }
        }

        /// An operation with side effects that fails with its error.
        final class RefusingOp: Op {
            let error: any Error & Sendable

            init(_ error: any Error & Sendable) {
                self.error = error
            }

            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                Completion(retaining: self, context: context, onFinish: onFinish).fail(error)
            }
        }

        private func refusing(_ error: any Error & Sendable, after ledger: EffectLedger) -> Scenario<Int, Int> {
            Scenario("Onboarding") { chain in
                chain
                    .then(ledger.step("OpenAccount").compensated(by: ledger.step("CloseAccount")))
                    .then(Step("CheckProfile") { RefusingOp(error) })
            }
        }

        private func journaledFailure(_ error: any Error & Sendable, in store: RunStore) throws -> JournalRecord {
            let journal = try store.create(scenario: "Onboarding")
            _ = run(refusing(error, after: EffectLedger()), 1, environment: OpEnvironment(observer: journal))
            try journal.close()
            return try store.load(journal.runID)
        }

        /// An error of the same plain name and shape as ``OnboardingError``, declared elsewhere.
        enum Elsewhere {
            enum OnboardingError: Error, Codable, Equatable {
                case underage(minimumAge: Int)
            }
        }

        @Test func aCodableErrorComesBackFromTheJournalAsItsOwnType() throws {
            try withTemporaryDirectory { directory in
                let record = try journaledFailure(
                    OnboardingError.underage(minimumAge: 18), in: RunStore(stateDirectory: directory))
                let recorded = try #require(record.error)
                #expect(recorded.matches(OnboardingError.self))
                #expect(!recorded.matches(OtherError.self), "a type of another name is another type")
                #expect(recorded.decode(as: OnboardingError.self) == .underage(minimumAge: 18))
                #expect(recorded.decode(as: OtherError.self) == nil)
                #expect(recorded.qualifiedType == String(reflecting: OnboardingError.self))
                // `Elsewhere.OnboardingError` has the same plain name.
                #expect(String(describing: Elsewhere.OnboardingError.self) == "OnboardingError")
                #expect(!recorded.matches(Elsewhere.OnboardingError.self), "matched by the type with its module")
                #expect(recorded.decode(as: Elsewhere.OnboardingError.self) == nil)
            }
        }

        @Test func anErrorThatIsNotCodableStillMatchesByType() throws {
            try withTemporaryDirectory { directory in
                let record = try journaledFailure(TestError.broken, in: RunStore(stateDirectory: directory))
                let recorded = try #require(record.error)
                #expect(recorded.matches(TestError.self))
                #expect(!recorded.matches(OnboardingError.self))
                #expect(recorded.decode(as: OnboardingError.self) == nil)
            }
        }

        @Test func anErrorHoldingASecretIsKeptInWordsOnly() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let record = try journaledFailure(WrongCode(code: Code(digits: "482913")), in: store)
                let recorded = try #require(record.error)
                #expect(recorded.matches(WrongCode.self))
                #expect(recorded.decode(as: WrongCode.self) == nil)
                let text = try String(contentsOf: store.url(for: record.runID), encoding: .utf8)
                #expect(!text.contains("482913"), "the secret never reaches the file")
            }
        }

        @Test func aJournalFromBeforeValuesWereKeptReadsAndMatchesByThePlainName() throws {
            let old = #"{"description":"broken","type":"TestError","transient":false,"cancelled":false}"#
            let recorded = try JSONDecoder().decode(RecordedError.self, from: Data(old.utf8))
            #expect(recorded.qualifiedType == nil)
            #expect(recorded.matches(TestError.self))
            #expect(!recorded.matches(OnboardingError.self))
            #expect(recorded.decode(as: OnboardingError.self) == nil)
        }

        @Test func causeMatchesTheLiveErrorAndTheOneARerunFailsAgainFromTheJournal() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Onboarding")
                // The account is closed in a process that dies before the close finishes.
                let first = EffectLedger(["CloseAccount": [.hang]])
                refusing(OnboardingError.nameTaken, after: first).launch(
                    OpContext(1, environment: OpEnvironment(observer: journal))
                ) { _ in }
                try journal.close()
                #expect(first.names == ["OpenAccount", "CloseAccount"])

                let live = try #require(
                    run(refusing(OnboardingError.nameTaken, after: EffectLedger()), 1, environment: OpEnvironment())?
                        .failure)
                #expect(RecordedError.cause(of: live, as: OnboardingError.self) == .nameTaken)

                // The rerun fails the step again from its record and finishes the undoing.
                let second = EffectLedger()
                let resumed = try store.resume(journal.runID)
                let rerun = try #require(
                    run(
                        refusing(TestError.broken, after: second), 1,
                        environment: OpEnvironment(observer: resumed, replay: resumed.replay))?.failure)
                try resumed.close()
                #expect(second.names == ["CloseAccount"])
                let failure = try #require(rerun as? StepFailure)
                #expect(failure.rootCause is RecordedError, "the error comes from the journal, not the operation")
                #expect(RecordedError.cause(of: rerun, as: OnboardingError.self) == .nameTaken)
                #expect(RecordedError.cause(of: rerun, as: OtherError.self) == nil)
                #expect(failure.undoneSteps.map(\.step) == ["OpenAccount"])
            }
        }
    }
}
