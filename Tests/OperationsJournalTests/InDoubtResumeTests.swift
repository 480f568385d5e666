import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// Contract 11: purity governs resumption, and a step with side effects is repeated only with
/// the idempotency key of the attempt left in doubt.
extension JournalTests {
    @Suite struct InDoubtResumeTests {
        /// A lost answer: the request may have taken effect.
        struct LostAnswer: Error, OutcomeUncertainError {
            var outcomeIsUncertain: Bool { true }
        }

        /// A definite refusal.
        struct Refused: Error {}

        /// What a step with side effects was launched with, and how each launch ends.
        final class KeyedOps: Sendable {
            enum Outcome: Sendable {
                case succeed
                case fail(any Error & Sendable)
                /// Never finishes: the attempt stays in flight, as in a process that is killed.
                case hang
            }

            private let script: LockedState<[Outcome]>
            private let seen = LockedState<[IdempotencyKey?]>([])
            private let launchedWith = LockedState<[Int]>([])
            private let parked = LockedState<[Completion<Int>]>([])
            /// Called inside each launch, before the operation acts.
            let onLaunch: @Sendable () -> Void

            init(_ script: [Outcome] = [], onLaunch: @escaping @Sendable () -> Void = {}) {
                self.script = LockedState(script)
                self.onLaunch = onLaunch
            }

            /// The key each launch carried, in order.
            var keys: [IdempotencyKey?] { seen.withLock { $0 } }

            /// The input of each launch, in order.
            var inputs: [Int] { launchedWith.withLock { $0 } }

            func makeSideEffects() -> SideEffectOp { SideEffectOp(source: self) }
            func makeIdempotent() -> SaveOp { SaveOp(source: self) }

            fileprivate func launch(_ context: OpContext<Int>, completion: Completion<Int>) {
                onLaunch()
                seen.withLock { $0.append(context.idempotencyKey) }
                launchedWith.withLock { $0.append(context.input) }
                switch script.withLock({ $0.isEmpty ? .succeed : $0.removeFirst() }) {
                case .succeed: completion.succeed(context.input + 1)
                case .fail(let error): completion.fail(error)
                case .hang: parked.withLock { $0.append(completion) }
                }
            }
        }

        /// Sends something that acts (an SMS, a charge).
        final class SideEffectOp: Op {
            private let source: KeyedOps
            fileprivate init(source: KeyedOps) { self.source = source }
            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                source.launch(context, completion: Completion(retaining: self, context: context, onFinish: onFinish))
            }
        }

        /// Overwrites a file: safe to repeat by nature.
        final class SaveOp: IdempotentOp {
            private let source: KeyedOps
            fileprivate init(source: KeyedOps) { self.source = source }
            func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
                source.launch(context, completion: Completion(retaining: self, context: context, onFinish: onFinish))
            }
        }

        private func scenario(_ first: RecordingOps, _ charge: KeyedOps, _ save: KeyedOps) -> Scenario<Int, Int> {
            Scenario("Checkout") { chain in
                chain
                    .then(Step("Load", first.make))
                    .then(Step("Charge", charge.makeSideEffects))
                    .then(Step("Save", save.makeIdempotent))
            }
        }

        /// Runs the scenario until `Charge` hangs, then closes the journal as a dying process
        /// would: the charge is in doubt.
        private func leaveChargeInDoubt(_ store: RunStore) throws -> (RunID, IdempotencyKey) {
            let charge = KeyedOps([.hang])
            let journal = try store.create(scenario: "Checkout")
            scenario(RecordingOps(), charge, KeyedOps()).launch(
                OpContext(10, environment: OpEnvironment(observer: journal))
            ) { _ in }
            try journal.close()
            let key = try #require(charge.keys.first ?? nil)
            return (journal.runID, key)
        }

        @Test func aStepWithSideEffectsInDoubtIsRelaunchedWithTheSameKey() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (runID, key) = try leaveChargeInDoubt(store)
                let record = try store.load(runID)
                let charged = try #require(record.step(at: StepAddress((1, "Charge"))))
                #expect(charged.isInDoubt)
                #expect(charged.purity == .sideEffects)
                #expect(charged.attempts.last?.idempotencyKey == key)

                let resumed = try store.resume(runID)
                let first = RecordingOps()
                let charge = KeyedOps()
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(scenario(first, charge, KeyedOps()), 10, environment: environment)?.success == 13)
                try resumed.close()
                #expect(first.launches.isEmpty, "Load completed and is replayed")
                #expect(charge.keys == [key], "the repeat carries the key of the attempt in doubt")
            }
        }

        @Test func aPureStepInDoubtIsRelaunchedFreely() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Pure")
                let parked = ParkedCompletion()
                let pure = Scenario<Int, Int>("Pure") { $0.then(Step("Slow") { ManualOp(handOver: parked.park) }) }
                pure.launch(OpContext(1, environment: OpEnvironment(observer: journal))) { _ in }
                try journal.close()
                #expect(try store.load(journal.runID).step(at: StepAddress((0, "Slow")))?.isInDoubt == true)

                let resumed = try store.resume(journal.runID)
                let again = RecordingOps()
                let relaunched = Scenario<Int, Int>("Pure") { $0.then(Step("Slow", again.make)) }
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                #expect(run(relaunched, 1, environment: environment)?.success == 2)
                try resumed.close()
                #expect(again.launches == [1])
                parked.finish(with: 0)
            }
        }

        @Test func withoutAKeyTheStepIsNotRelaunchedUnlessTheCallerSaysSo() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let (runID, _) = try leaveChargeInDoubt(store)
                // A journal written before keys existed: the launch line has no key.
                let url = store.url(for: runID)
                let text = try String(contentsOf: url, encoding: .utf8)
                let stripped = withoutChecksums(text).replacingOccurrences(
                    of: #","idempotencyKey":"[0-9a-f]+""#, with: "", options: .regularExpression)
                #expect(stripped != text)
                try Data(stripped.utf8).write(to: url)

                let resumed = try store.resume(runID)
                let charge = KeyedOps()
                let environment = OpEnvironment(observer: resumed, replay: resumed.replay)
                let failure = try #require(
                    run(scenario(RecordingOps(), charge, KeyedOps()), 10, environment: environment)?.failure
                        as? StepFailure)
                try resumed.close()
                #expect(failure.rootCause as? ResumeError == .sideEffectsInDoubt(step: StepAddress((1, "Charge"))))
                #expect("\(failure)".contains("no idempotency key"))
                #expect(charge.keys.isEmpty, "nothing was launched for the step in doubt")

                let forced = try store.resume(runID)
                let environmentForcing = OpEnvironment(
                    observer: forced, replay: forced.replay(relaunchingInDoubt: true))
                #expect(
                    run(scenario(RecordingOps(), charge, KeyedOps()), 10, environment: environmentForcing)?.success
                        == 13)
                try forced.close()
                #expect(charge.keys.count == 1, "launched once, by the caller's choice, with a new key")
            }
        }

        @Test func anIdempotentStepThatSucceededIsRelaunchedNotReplayed() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Checkout")
                let save = KeyedOps()
                let failingAfterSave = Scenario<Int, Int>("Checkout") { chain in
                    chain.then(Step("Save", save.makeIdempotent)).then(
                        Step("Then", RecordingOps([.failure(.broken)]).make))
                }
                _ = run(failingAfterSave, 1, environment: OpEnvironment(observer: journal))
                try journal.close()

                let resumed = try store.resume(journal.runID)
                let saveAgain = KeyedOps()
                let then = RecordingOps()
                let again = Scenario<Int, Int>("Checkout") { chain in
                    chain.then(Step("Save", saveAgain.makeIdempotent)).then(Step("Then", then.make))
                }
                #expect(
                    run(again, 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))?.success == 3)
                try resumed.close()
                #expect(saveAgain.keys == [nil], "relaunched (its effect lives outside the journal), without a key")
                #expect(then.launches == [2])
            }
        }

        @Test func aRetryRepeatsTheKeyWhateverErrorsCameBetween() {
            let charge = KeyedOps([.fail(LostAnswer()), .fail(Refused()), .succeed])
            let policy = RetryPolicy(
                maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true, isTransient: { _ in true })
            let scenario = Scenario<Int, Int>("Retry") {
                $0.then(Step("Charge", charge.makeSideEffects).retrying(policy))
            }
            #expect(run(scenario, 1, environment: OpEnvironment())?.success == 2)
            let keys = charge.keys.compactMap { $0 }
            #expect(keys.count == 3)
            #expect(keys[0] == keys[1], "the answer to the first attempt may have been lost")
            #expect(keys[2] == keys[1], "a refused repeat does not free the key: the first attempt may have acted")
        }

        @Test func pureAndIdempotentStepsGetNoKey() {
            let save = KeyedOps()
            let scenario = Scenario<Int, Int>("Keys") { $0.then(Step("Save", save.makeIdempotent)) }
            #expect(run(scenario, 1, environment: OpEnvironment())?.success == 2)
            #expect(save.keys == [nil])
        }

        @Test func theLaunchOfAStepWithSideEffectsIsOnDiskBeforeItActs() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Checkout", durability: .buffered)
                let url = journal.url
                let onDisk = LockedState<[String]>([])
                let charge = KeyedOps(onLaunch: {
                    let lines = (try? String(contentsOf: url, encoding: .utf8))?.split(separator: "\n") ?? []
                    onDisk.withLock { $0 = lines.map(String.init) }
                })
                #expect(
                    run(
                        scenario(RecordingOps(), charge, KeyedOps()), 10, environment: OpEnvironment(observer: journal))?
                        .success == 13)
                try journal.close()
                let key = try #require(charge.keys.first ?? nil)
                let launchLine = try #require(onDisk.withLock { $0 }.last)
                #expect(launchLine.contains(#""event":"stepLaunched""#))
                #expect(launchLine.contains(#""idempotencyKey":"\#(key.rawValue)""#))
                #expect(!"\(key)".contains(key.rawValue), "a key never prints in clear")
            }
        }
    }
}

extension JournalTests.InDoubtResumeTests {
    /// `.transient(maxAttempts: 3)` on a step with side effects does not retry it; the failure
    /// says why instead of reporting only the error.
    @Test func aRetryDeclinedForSideEffectsSaysSo() throws {
        struct Flaky: Error, RetryableError { var isTransient: Bool { true } }
        let charge = KeyedOps([.fail(Flaky())])
        let scenario = Scenario<Int, Int>("Retry") {
            $0.then(Step("Charge", charge.makeSideEffects).retrying(.transient(maxAttempts: 3, backoff: .immediate)))
        }
        let failure = try #require(run(scenario, 1, environment: OpEnvironment())?.failure as? StepFailure)
        #expect(charge.keys.count == 1)
        #expect(failure.notes == ["not retried: Charge has side effects and its retry policy does not relaunch them"])
        #expect(
            "\(failure)".hasSuffix("(not retried: Charge has side effects and its retry policy does not relaunch them)")
        )
    }
}
