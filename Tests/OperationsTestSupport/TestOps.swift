package import Dispatch
package import Operations
import OperationsTesting
import Synchronization

/// Finishes synchronously, before `launch` returns, with `input * 2`.
package final class DoubleOp: PureOp {
    package init() {}

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        Completion(retaining: self, context: context, onFinish: onFinish).succeed(context.input * 2)
    }
}

/// Hands its completion to the test, which finishes it whenever and from wherever it likes.
package final class ManualOp: PureOp {
    private let handOver: @Sendable (Completion<Int>) -> Void

    package init(handOver: @escaping @Sendable (Completion<Int>) -> Void) {
        self.handOver = handOver
    }

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        handOver(Completion(retaining: self, context: context, onFinish: onFinish))
    }
}

/// Finishes on a Dispatch queue once `gate` is opened: the caller's scope is long gone by then.
package final class GatedOp: PureOp {
    private let gate: DispatchSemaphore

    package init(gate: DispatchSemaphore) {
        self.gate = gate
    }

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let gate = gate
        DispatchQueue.global().async {
            gate.wait()
            completion.succeed(context.input + 1)
        }
    }
}

/// Lets go of its completion without finishing: a bug the engine must catch.
package final class AbandoningOp: PureOp {
    package init() {}

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        _ = Completion(retaining: self, context: context, onFinish: onFinish)
    }
}

/// Finishes twice through its completion.
package final class TwiceOp: PureOp {
    package init() {}

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        completion.succeed(1)
        completion.succeed(2)
    }
}

/// Calls `onFinish` twice directly, without a completion: only the engine's own guards stop it.
package final class RawTwiceOp: PureOp {
    package init() {}

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        onFinish(.success(1))
        onFinish(.success(2))
    }
}

/// Never finishes and never lets go: what an operation waiting on a lost callback looks like.
package final class StuckOp: PureOp {
    private let parked: LockedState<[Completion<Int>]>

    package init() {
        parked = LockedState([])
    }

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        parked.withLock { $0.append(completion) }
    }
}

/// An error whose transience a test chooses.
package struct TestError: RetryableError, Hashable, CustomStringConvertible {
    package let name: String
    package let isTransient: Bool
    package var retryDelay: Duration?

    package init(name: String, isTransient: Bool, retryDelay: Duration? = nil) {
        self.name = name
        self.isTransient = isTransient
        self.retryDelay = retryDelay
    }

    package static let flaky = TestError(name: "flaky", isTransient: true)
    package static let broken = TestError(name: "broken", isTransient: false)

    /// A transient error that asks to be retried no sooner than `delay` (a server's `Retry-After`).
    package static func busy(for delay: Duration) -> TestError {
        TestError(name: "busy", isTransient: true, retryDelay: delay)
    }

    package var description: String { name }
}

/// Plays a script of outcomes, one per launch, shared by every operation the factory makes,
/// and counts launches — so a test can prove a step was (or was not) launched again.
package final class ScriptedOps: Sendable {
    private let script: LockedState<[Result<Int, TestError>]>
    private let launches = Atomic<Int>(0)

    package init(_ script: [Result<Int, TestError>]) {
        self.script = LockedState(script)
    }

    package var launchCount: Int { launches.load(ordering: .relaxed) }

    package func make() -> ScriptedOp { ScriptedOp(source: self) }

    package func makeWithSideEffects() -> SideEffectOp { SideEffectOp(source: self) }

    fileprivate func next(input: Int) -> Result<Int, any Error> {
        launches.add(1, ordering: .relaxed)
        let outcome = script.withLock { $0.isEmpty ? .success(input) : $0.removeFirst() }
        return outcome.mapError { $0 }
    }
}

package final class ScriptedOp: PureOp {
    private let source: ScriptedOps

    fileprivate init(source: ScriptedOps) {
        self.source = source
    }

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        Completion(retaining: self, context: context, onFinish: onFinish).finish(source.next(input: context.input))
    }
}

package final class SideEffectOp: Op {
    private let source: ScriptedOps

    fileprivate init(source: ScriptedOps) {
        self.source = source
    }

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        Completion(retaining: self, context: context, onFinish: onFinish).finish(source.next(input: context.input))
    }
}

/// Turns an `Int` into its decimal text: a step whose output type differs from its input.
package final class DescribeOp: PureOp {
    package init() {}

    package func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<String>) {
        Completion(retaining: self, context: context, onFinish: onFinish).succeed("#\(context.input)")
    }
}

/// Collects deliveries and lets a test wait for the first one with a timeout.
package final class FinishBox<Value: Sendable>: Sendable {
    package init() {}

    private let results = LockedState<[Result<Value, any Error>]>([])
    private let signal = DispatchSemaphore(value: 0)

    package var onFinish: OnFinish<Value> {
        { result in
            let first = self.results.withLock { results in
                results.append(result)
                return results.count == 1
            }
            if first { self.signal.signal() }
        }
    }

    /// Waits up to `timeout` for the first delivery.
    package func wait(timeout: Duration = TestTimeout.standard) -> Result<Value, any Error>? {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        guard signal.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .success else { return nil }
        return results.withLock { $0.first }
    }

    package var count: Int { results.withLock { $0.count } }
    package var first: Result<Value, any Error>? { results.withLock { $0.first } }
}

/// Counts diagnostics by kind without storing them: cheap enough for a million reports.
package final class CountingDiagnostics: OpDiagnostics {
    package init() {}

    private let twice = Atomic<Int>(0)
    private let late = Atomic<Int>(0)
    private let abandoned = Atomic<Int>(0)

    package func report(_ diagnostic: OpDiagnostic) {
        switch diagnostic.kind {
        case .finishedTwice: twice.add(1, ordering: .relaxed)
        case .lateFinishDropped: late.add(1, ordering: .relaxed)
        case .abandoned: abandoned.add(1, ordering: .relaxed)
        case .answeredTwice: break
        }
    }

    package var finishedTwice: Int { twice.load(ordering: .relaxed) }
    package var lateFinishes: Int { late.load(ordering: .relaxed) }
    package var abandonments: Int { abandoned.load(ordering: .relaxed) }
}

extension Result {
    package var success: Success? {
        guard case .success(let value) = self else { return nil }
        return value
    }

    package var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
