import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// The rule of `IdempotencyKey`: a key names a request — run, step, launch value, which request —
/// and no sequence of errors frees it.
extension JournalTests {
    @Suite struct KeyRuleTests {
        typealias KeyedOps = InDoubtResumeTests.KeyedOps
        typealias LostAnswer = InDoubtResumeTests.LostAnswer
        typealias Refused = InDoubtResumeTests.Refused

        private static let policy = RetryPolicy(
            maxAttempts: 3, backoff: .immediate, relaunchesSideEffects: true, isTransient: { _ in true })

        @Test func aRequestKeyIsStableAndTwoRequestsNeverShareOne() throws {
            let launch = try #require(IdempotencyKey("0123456789abcdef0123456789abcdef"))
            #expect(launch.forRequest("send") == launch.forRequest("send"))
            #expect(launch.forRequest("send") != launch.forRequest("verify"))
            #expect(launch.forRequest("send") != launch)
            #expect(IdempotencyKey.make().forRequest("send") != IdempotencyKey.make().forRequest("send"))
            // The same in every process: a rerun derives what the first process sent.
            #expect(launch.forRequest("send").rawValue.count == 32)
            var context = OpContext(1)
            #expect(context.idempotencyKey(for: "send") == nil, "no launch key, no request key")
            context.idempotencyKey = launch
            #expect(context.idempotencyKey(for: "verify") == launch.forRequest("verify"))
        }

        @Test func aLostAnswerThenARefusalThenAnOutageKeepsOneKey() {
            let charge = KeyedOps([.fail(LostAnswer()), .fail(Refused())])
            let scenario = Scenario<Int, Int>("Pay") {
                $0.then(Step("Charge", charge.makeSideEffects).retrying(Self.policy))
            }
            #expect(run(scenario, 1, environment: OpEnvironment())?.success == 2)
            #expect(Set(charge.keys.compactMap { $0 }).count == 1)
            #expect(charge.keys.count == 3)
        }

        @Test func aHandlersRelaunchWithAnotherValueIsANewRequestAndWithTheSameValueIsNot() {
            let charge = KeyedOps([.fail(Refused()), .fail(Refused())])
            let relaunches = LockedState(0)
            let scenario = Scenario<Int, Int>("Pay") {
                $0.then(
                    Step("Charge", charge.makeSideEffects).onFailure { info, decide in
                        let count = relaunches.withLock { count in
                            count += 1
                            return count
                        }
                        // First the same card again, then another one.
                        decide(.relaunch(count == 1 ? info.input : info.input + 100))
                    })
            }
            #expect(run(scenario, 1, environment: OpEnvironment())?.success == 102)
            let keys = charge.keys.compactMap { $0 }
            #expect(keys.count == 3)
            #expect(keys[0] == keys[1], "the same value again is the same request")
            #expect(keys[2] != keys[1], "another value is a new request with a new key")
        }

        @Test func aRerunAfterALostAnswerAndADefiniteFailureRepeatsTheKeyAndShowsTheStepInDoubt() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Pay")
                let charge = KeyedOps([.fail(LostAnswer()), .fail(Refused()), .fail(Refused())])
                let scenario = Scenario<Int, Int>("Pay") {
                    $0.then(Step("Charge", charge.makeSideEffects).retrying(Self.policy))
                }
                #expect(run(scenario, 1, environment: OpEnvironment(observer: journal))?.failure != nil)
                try journal.close()
                let key = try #require(charge.keys.first ?? nil)

                let record = try store.load(journal.runID)
                let step = try #require(record.step(at: StepAddress((0, "Charge"))))
                #expect(step.isInDoubt, "the first attempt may have acted; later refusals do not say otherwise")
                #expect(step.keyInDoubt == key)

                let resumed = try store.resume(journal.runID)
                let again = KeyedOps()
                let rerun = Scenario<Int, Int>("Pay") { $0.then(Step("Charge", again.makeSideEffects)) }
                #expect(
                    run(rerun, 1, environment: OpEnvironment(observer: resumed, replay: resumed.replay))?.success == 2)
                try resumed.close()
                #expect(again.keys == [key], "the rerun repeats the request under its key")
            }
        }
    }
}
