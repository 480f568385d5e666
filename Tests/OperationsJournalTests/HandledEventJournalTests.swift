import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import OperationsTesting
import Testing

extension JournalTests {
    /// Issue 36 §1: an event a scenario handled, and what its reaction launched, is in the run's
    /// journal, so every view of the run can say it happened; it is no step of the run.
    @Suite struct HandledEventJournalTests {
        enum Ping: Sendable { case hello }

        /// The reaction: a scenario of its own, launched with the boundary's context.
        static let reaction = Scenario<Int, String>("Reaction") { chain in
            chain.then(Step { DoubleOp() }).then(Step { DescribeOp() })
        }

        /// Postpones the event to the end, where it launches ``reaction`` and goes on.
        static let handle: EventHandler<Ping> = { _, boundary, react in
            guard boundary.nextStep == nil else { return react(.postpone) }
            reaction.launch(boundary.context.with(input: 5)) { _ in react(.proceed) }
        }

        static func scenario(_ inbox: EventInbox<Ping>) -> Scenario<Int, String> {
            Scenario("Pinged", events: inbox, onEvent: handle) { chain in
                chain.then(Step("First") { DoubleOp() }).then(Step("Last") { DescribeOp() })
            }
        }

        @Test func theEventItsReactionAndWhatItLaunchedAreJournaledAndReadBack() throws {
            try withTemporaryDirectory { directory in
                let store = RunStore(stateDirectory: directory)
                let journal = try store.create(scenario: "Pinged")
                let inbox = EventInbox<Ping>()
                inbox.post(.hello)
                #expect(run(Self.scenario(inbox), 3, environment: OpEnvironment(observer: journal))?.success == "#6")
                try journal.close()

                let history = RunHistory(try store.load(journal.runID))
                let events = history.events.map(\.event)
                #expect(events.map(\.boundary) == ["before First", "before Last", "at the end"])
                #expect(events.map(\.reaction) == [.postponed, .postponed, .proceeded])
                let handled = try #require(events.last)
                #expect(handled.event == "hello")
                #expect(
                    handled.launched == [
                        .init(path: ["Reaction"], outcome: .succeeded, attempts: 0, output: "#10"),
                        .init(path: ["Reaction", "DoubleOp"], outcome: .succeeded, attempts: 1, output: "10"),
                        .init(path: ["Reaction", "DescribeOp"], outcome: .succeeded, attempts: 1, output: "#10"),
                    ])
                #expect(history.events.allSatisfy { $0.session == 1 && $0.scenario.path.isEmpty })
                // The reaction is not a step of the run: nothing of it is replayed by a rerun.
                #expect(history.steps.map(\.name) == ["First", "Last"])
            }
        }

        /// An operation that retries its request inside one launch reports each retry: the
        /// step's failure counts every attempt, observed or not.
        @Test(arguments: [false, true])
        func aFailureAfterInnerRetriesCountsEveryAttempt(observed: Bool) throws {
            let scenario = Scenario<Int, Int>("Inner") { chain in chain.then(Step("Retrying") { InnerRetryOp() }) }
            let environment = observed ? OpEnvironment(observer: ScenarioRecorder()) : OpEnvironment()
            let result = try #require(run(scenario, 1, environment: environment))
            guard case .failure(let error) = result else {
                Issue.record("the step succeeded")
                return
            }
            let failure = try #require(error as? StepFailure)
            #expect(failure.attempt == 3)
            #expect(failure.description.hasPrefix("Retrying failed after 3 attempts"), "\(failure)")
        }

        /// A nested step's failure is told with the attempts of the operation it names, not of
        /// the scenario step around it.
        @Test func aNestedFailureCountsTheAttemptsOfTheStepItNames() {
            let inner = StepFailure(
                scenario: "Verification", step: "TermsOfUseOp", attempt: 3, error: InnerRetryOp.Busy())
            let outer = StepFailure(scenario: "Auth", step: "Verification", attempt: 1, error: inner)
            #expect(outer.failedOperationAttempts == 3)
            #expect(outer.description == "Verification › TermsOfUseOp failed after 3 attempts: Busy()")
        }

        /// A step stopped by a cancellation reads "cancelled", not "failed".
        @Test func aCancelledStepReadsCancelled() {
            let stopped = StepFailure(scenario: "Verification", step: "CodeOp", attempt: 2, error: OpError.cancelled)
            #expect(stopped.description == "CodeOp cancelled at attempt 2: \(OpError.cancelled)")
        }
    }
}

/// Sends its request three times inside one launch, reporting the two retries, and fails.
private final class InnerRetryOp: PureOp {
    struct Busy: Error {}

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        for attempt in 1...2 {
            context.reportRetry(of: attempt, after: Busy(), took: nil, retryingIn: nil, purity: .pure)
        }
        completion.fail(Busy())
    }
}
