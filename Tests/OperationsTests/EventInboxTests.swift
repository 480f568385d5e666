import Dispatch
import Operations
import OperationsDiagrams
import OperationsTestSupport
import OperationsTesting
import Synchronization
import Testing

/// Events from outside a running scenario: taken at step boundaries, handed to the handler in
/// order, the run waiting for each reaction.
struct EventInboxTests {
    enum Ping: Sendable, Equatable {
        case hello
        case stop
    }

    /// Records the boundaries the handler saw and answers each event by `answer`.
    final class Handler: Sendable {
        let seen = Mutex<[String]>([])
        let answer: @Sendable (Ping) -> EventReaction

        init(_ answer: @escaping @Sendable (Ping) -> EventReaction = { _ in .proceed }) {
            self.answer = answer
        }

        var handle: EventHandler<Ping> {
            { event, boundary, react in
                self.seen.withLock { $0.append("\(event) \(boundary)") }
                react(self.answer(event))
            }
        }
    }

    /// Posts an event when a step of the outer scenario ends (succeeded or skipped), so that it
    /// is waiting at the boundary that follows.
    struct PostAfter: ScenarioObserver {
        let step: Int
        let inbox: EventInbox<Ping>
        let event: Ping

        func scenario(_ event: ScenarioEvent) {
            guard event.address.path.count == 1, event.address.path[0].index == step else { return }
            switch event.kind {
            case .stepSucceeded, .stepSkipped: inbox.post(self.event)
            default: break
            }
        }
    }

    static func scenario(_ inbox: EventInbox<Ping>, _ handler: Handler) -> Scenario<Int, String> {
        Scenario("Pinged", events: inbox, onEvent: handler.handle) { chain in
            chain
                .then(Step("First") { DoubleOp() })
                .then(Step("Optional") { DoubleOp() }, when: { $0 > 100 })
                .map { $0 + 1 }
                .then(Step("Last") { DescribeOp() })
        }
    }

    @Test func withNothingPostedTheHandlerIsNeverAsked() throws {
        let handler = Handler()
        let report = LaunchProbe.launch(Self.scenario(EventInbox(), handler), input: 3)
        #expect(report.keptContract)
        #expect(try report.value() == "#7")
        #expect(handler.seen.withLock { $0 }.isEmpty)
    }

    @Test func anEventPostedBeforeTheLaunchIsTakenBeforeTheFirstStep() throws {
        let inbox = EventInbox<Ping>()
        let handler = Handler()
        inbox.post(.hello)
        let report = LaunchProbe.launch(Self.scenario(inbox, handler), input: 3)
        #expect(try report.value() == "#7")
        #expect(handler.seen.withLock { $0 } == ["hello before First"])
    }

    /// Every boundary: before each step (a skipped one too) and at the end. `map` is none.
    @Test(arguments: [(0, "before Optional"), (1, "before Last"), (2, "at the end")])
    func anEventIsTakenAtTheBoundaryAfterItArrived(step: Int, boundary: String) throws {
        let inbox = EventInbox<Ping>()
        let handler = Handler()
        let context = OpContext(
            3, environment: OpEnvironment(observer: PostAfter(step: step, inbox: inbox, event: .hello)))
        let report = LaunchProbe.launch(Self.scenario(inbox, handler), context: context)
        #expect(try report.value() == "#7")
        #expect(handler.seen.withLock { $0 } == ["hello \(boundary)"])
    }

    @Test(arguments: [0, 1, 2])
    func endingTheRunAtABoundaryLaunchesNothingAfterIt(step: Int) throws {
        let inbox = EventInbox<Ping>()
        let handler = Handler { $0 == .stop ? .end(TestError.broken) : .proceed }
        let recorder = ScenarioRecorder()
        let observer = ObserverGroup([PostAfter(step: step, inbox: inbox, event: .stop), recorder])
        let report = LaunchProbe.launch(
            Self.scenario(inbox, handler), context: OpContext(3, environment: OpEnvironment(observer: observer)))
        #expect(report.keptContract)
        #expect(report.error as? TestError == TestError.broken)
        let launched = recorder.stepLines.filter { $0.contains("launched") }
        // The optional step is skipped (3 doubled is not over 100): only First and Last launch.
        #expect(launched.count == (step == 2 ? 2 : 1), "\(recorder.stepLines)")
    }

    @Test func aCancellationReasonEndsTheRunAsCancelled() throws {
        struct SignedOutElsewhere: CancellationReason, CustomStringConvertible {
            var description: String { "signed out on another device" }
        }
        let inbox = EventInbox<Ping>()
        inbox.post(.stop)
        let report = LaunchProbe.launch(
            Self.scenario(inbox, Handler { _ in .end(SignedOutElsewhere()) }), input: 3)
        #expect(report.error?.isCancellation == true)
    }

    @Test func eventsAreHandedOverInOrderAndAnEndDropsTheRest() throws {
        let inbox = EventInbox<Ping>()
        let handler = Handler { $0 == .stop ? .end(TestError.broken) : .proceed }
        for event in [Ping.hello, .hello, .stop, .hello] { inbox.post(event) }
        let report = LaunchProbe.launch(Self.scenario(inbox, handler), input: 3)
        #expect(report.error as? TestError == TestError.broken)
        #expect(handler.seen.withLock { $0 } == ["hello before First", "hello before First", "stop before First"])
    }

    /// Any number of events at one boundary take constant stack depth when the handler reacts
    /// at once (they used to nest a call per event).
    @Test func manyEventsAtOneBoundaryTakeConstantStackDepth() throws {
        let inbox = EventInbox<Ping>()
        for _ in 0..<50_000 { inbox.post(.hello) }
        let handled = Mutex(0)
        let counting: EventHandler<Ping> = { _, _, react in
            handled.withLock { $0 += 1 }
            react(.proceed)
        }
        func makeScenario() -> Scenario<Int, String> {
            Scenario("Busy", events: inbox, onEvent: counting) { $0.then(Step("Only") { DescribeOp() }) }
        }
        let report = LaunchProbe.launch(makeScenario(), input: 1)
        #expect(try report.value() == "#1")
        #expect(handled.withLock { $0 } == 50_000)
    }

    /// A postponed event is handed over again at the next boundary, and is the only one.
    @Test func aPostponedEventComesBackAtTheNextBoundary() throws {
        let inbox = EventInbox<Ping>()
        let handler = Handler()
        let postponing = Handler { _ in .postpone }
        inbox.post(.hello)
        let choose: EventHandler<Ping> = { event, boundary, react in
            (boundary.nextStep == "First" ? postponing : handler).handle(event, boundary, react)
        }
        func makeScenario() -> Scenario<Int, String> {
            Scenario("Later", events: inbox, onEvent: choose) { chain in
                chain.then(Step("First") { DoubleOp() }).then(Step("Last") { DescribeOp() })
            }
        }
        let report = LaunchProbe.launch(makeScenario(), input: 3)
        #expect(report.keptContract)
        #expect(try report.value() == "#6")
        #expect(postponing.seen.withLock { $0 } == ["hello before First"])
        #expect(handler.seen.withLock { $0 } == ["hello before Last"])
    }

    /// A handler that reacts later, from another thread (after launching something of its
    /// own): the run waits at the boundary, then goes on.
    @Test func theRunWaitsForAnAsynchronousReaction() async throws {
        let inbox = EventInbox<Ping>()
        let reacted = Atomic<Bool>(false)
        let handler: EventHandler<Ping> = { _, boundary, react in
            let op = DoubleOp()
            DispatchQueue.global().async {
                op.launch(boundary.context.with(input: 1)) { _ in
                    reacted.store(true, ordering: .releasing)
                    react(.proceed)
                }
            }
        }
        let makeScenario: @Sendable () -> Scenario<Int, String> = {
            Scenario<Int, String>("Waiting", events: inbox, onEvent: handler) { chain in
                chain.then(Step("Only") { DescribeOp() })
            }
        }
        inbox.post(.hello)
        let report = await LaunchProbe.awaitLaunch(makeScenario, context: OpContext(5))
        #expect(report.keptContract)
        #expect(try report.value() == "#5")
        let didReact = reacted.load(ordering: .acquiring)
        #expect(didReact)
    }

    /// A traced run notes each event on the scenario's lifeline, where it was taken.
    @Test func aTracedRunNotesTheEvent() throws {
        let inbox = EventInbox<Ping>()
        inbox.post(.hello)
        let tracer = InMemoryTracer()
        var context = OpContext(3)
        context.trace = .root(tracer, caller: .caller("Caller"))
        _ = LaunchProbe.launch(Self.scenario(inbox, Handler()), context: context)
        let rendered = try TextDiagramRenderer(maxWidth: 100).render(tracer.trace)
        #expect(rendered.contains("event hello before First"), "\(rendered)")
    }
}
