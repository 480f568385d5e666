import Dispatch
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

struct LifetimeTests {
    @Test func aLaunchedOperationOutlivesItsCallerAndIsReleasedWhenItFinishes() throws {
        let gate = DispatchSemaphore(value: 0)
        let box = FinishBox<Int>()
        weak var weakOperation: GatedOp?
        do {
            let operation = GatedOp(gate: gate)
            weakOperation = operation
            operation.launch(OpContext(41), onFinish: box.onFinish)
        }
        #expect(weakOperation != nil, "an unfinished launch must keep its operation alive")

        gate.signal()
        let result = try #require(box.wait())
        #expect(result.success == 42)
        #expect(weakOperation == nil, "the operation is released before onFinish is delivered")
        #expect(box.count == 1)
    }

    @Test func aSynchronousOperationFinishesBeforeLaunchReturnsAndIsReleased() throws {
        let report = LaunchProbe.launch(DoubleOp(), input: 21)
        #expect(report.keptContract)
        #expect(try report.value() == 42)
    }

    @Test func theCompletionReleasesTheCallersOnFinishClosureAfterDelivery() {
        final class Canary: Sendable {}
        weak var weakCanary: Canary?
        do {
            let canary = Canary()
            weakCanary = canary
            DoubleOp().launch(OpContext(1)) { _ in _ = canary }
        }
        #expect(weakCanary == nil)
    }

    @Test func theInFlightRegistryListsUnfinishedLaunchesOnly() throws {
        let registry = InFlightRegistry()
        let environment = OpEnvironment(inFlight: registry)
        let gate = DispatchSemaphore(value: 0)
        let box = FinishBox<Int>()
        GatedOp(gate: gate).launch(OpContext(1, environment: environment), onFinish: box.onFinish)
        DoubleOp().launch(OpContext(1, environment: environment)) { _ in }

        #expect(registry.entries.map(\.operation) == ["GatedOp"])
        gate.signal()
        _ = try #require(box.wait())
        #expect(registry.entries.isEmpty)
    }

    @Test func aScenarioInFlightGoesByItsNameNotItsGenericType() throws {
        let registry = InFlightRegistry()
        let parked = LockedState<Completion<Int>?>(nil)
        let scenario = Scenario<Int, Int>("Checkout") { chain in
            chain.then(Step("Pay") { ManualOp { completion in parked.withLock { $0 = completion } } })
        }
        let box = FinishBox<Int>()
        scenario.launch(OpContext(1, environment: OpEnvironment(inFlight: registry)), onFinish: box.onFinish)
        let names = registry.entries.map(\.operation)
        #expect(names.contains("Checkout"), "\(names)")
        #expect(!names.contains { $0.hasPrefix("Scenario<") }, "\(names)")
        try #require(parked.withLock { $0 }).succeed(5)
        #expect(box.wait()?.success == 5)
        #expect(registry.entries.isEmpty)
    }

    /// A step that keeps its `onFinish` for the test to call, without a completion: the token
    /// reaches only the scenario's own completion.
    private final class ParkedRawOp: PureOp {
        let parked: LockedState<OnFinish<Int>?>

        init(parked: LockedState<OnFinish<Int>?>) {
            self.parked = parked
        }

        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
            parked.withLock { $0 = onFinish }
        }
    }

    @Test func aScenarioFinishedLateGoesByItsNameNotItsGenericType() throws {
        let diagnostics = DiagnosticsRecorder()
        let token = CancellationToken()
        let parked = LockedState<OnFinish<Int>?>(nil)
        let scenario = Scenario<Int, Int>("Checkout") { chain in
            chain.then(Step("Pay") { ParkedRawOp(parked: parked) })
        }
        let box = FinishBox<Int>()
        scenario.launch(
            OpContext(1, cancellation: token, environment: OpEnvironment(diagnostics: diagnostics)),
            onFinish: box.onFinish)
        token.cancel()
        #expect(box.wait()?.failure as? OpError == .cancelled)
        // The step's answer comes after the scenario was cancelled and released: the chain
        // reaches the scenario's end, whose completion drops it and names the scenario.
        let lateAnswer = try #require(parked.withLock { $0 })
        lateAnswer(.success(5))
        #expect(diagnostics.diagnostics == [OpDiagnostic(kind: .lateFinishDropped, operation: "Checkout")])
        #expect(box.count == 1)
    }

    @Test func aScenarioWithNothingToWatchStillFinishesOnceAndIsReleased() throws {
        // Without a token, a deadline or a registry the scenario's completion keeps no name:
        // the launch is the same to its caller.
        let report = LaunchProbe.launch(
            Scenario<Int, Int>("Plain") { chain in chain.then(Step { DoubleOp() }).then(Step { DoubleOp() }) },
            input: 3)
        #expect(report.finishCount == 1)
        #expect(try report.value() == 12)
        #expect(report.released)
        #expect(report.diagnostics.isEmpty)
    }
}
