import Dispatch
import Operations

/// The engine operation the cases launch: finishes synchronously, before `launch` returns, with
/// `input * 2`, through a ``Completion`` as every operation should.
final class SyncDoubleOp: PureOp {
    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        Completion(retaining: self, context: context, onFinish: onFinish).succeed(context.input &* 2)
    }
}

/// `SyncDoubleOp` written as an `async throws` function (``AsyncOp``): its run never suspends.
final class AsyncDoubleOp: AsyncOp, PureOp {
    func run(_ input: Int, context: OpContext<Int>) async throws -> Int {
        input &* 2
    }
}

/// An engine operation that finishes on a Dispatch queue, inside `group`, with `input * 2`.
final class DispatchedDoubleOp: PureOp {
    private let queue: DispatchQueue
    private let group: DispatchGroup

    init(queue: DispatchQueue, group: DispatchGroup) {
        self.queue = queue
        self.group = group
    }

    func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<Int>) {
        let completion = Completion(retaining: self, context: context, onFinish: onFinish)
        let input = context.input
        queue.async(group: group) { completion.succeed(input &* 2) }
    }
}

extension BenchCase {
    /// The body of most engine cases: the operation `make` gives, made once per round as a
    /// factory-made operation is, launched `iterations` times with a fresh context each
    /// (`OpContext(index)`), as callers do.
    static func launches<O: Op<Int, Int>>(_ make: @escaping @Sendable () -> O) -> @Sendable (Int) -> Void {
        { iterations in
            let op = make()
            for index in 0..<iterations {
                op.launch(OpContext(index), onFinish: BlackHole.consumeResult)
            }
        }
    }

    /// The same, each launch awaited through the engine's async bridge (`try await op.launch(context)`).
    static func awaits<O: Op<Int, Int>>(_ make: @escaping @Sendable () -> O) -> @Sendable (Int) -> Void {
        { iterations in
            let op = make()
            AsyncBlocking.awaitEach(iterations) { index in try await op.launch(OpContext(index)) }
        }
    }

}
