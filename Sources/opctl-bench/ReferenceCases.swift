import Dispatch
import Foundation
import Synchronization

/// The cases that measure what a developer would use instead of the engine: a hand-written
/// self-retaining object, Foundation's `OperationQueue`, Dispatch and Swift concurrency.
///
/// Each body runs `iterations` operations and puts every result into ``BlackHole``.
enum ReferenceCases {
    static let selfRetain = BenchCase.timed(
        "baseline.selfRetain",
        "hand-written: allocate a final class that retains itself, finish once through an atomic flag, release"
    ) { iterations in
        for index in 0..<iterations {
            SelfRetainingJob().start(index)
        }
    }

    static let operationQueueBatch = BenchCase.timed(
        "opqueue.batch", "OperationQueue, BlockOperations added in a batch, waited once", reference: "op.sync"
    ) { iterations in
        let queue = OperationQueue()
        var operations: [Operation] = []
        operations.reserveCapacity(iterations)
        for index in 0..<iterations {
            operations.append(BlockOperation { BlackHole.consume(index &* 2) })
        }
        queue.addOperations(operations, waitUntilFinished: true)
    }.crossThread()

    static let operationQueueEachWaited = BenchCase.timed(
        "opqueue.wait", "OperationQueue, each BlockOperation added and waited for", reference: "op.sync"
    ) { iterations in
        let queue = OperationQueue()
        for index in 0..<iterations {
            queue.addOperations([BlockOperation { BlackHole.consume(index &* 2) }], waitUntilFinished: true)
        }
    }.crossThread()

    /// A group wait after every ``DispatchBatches/size`` blocks.
    static let dispatchAsync = BenchCase.timed(
        "dispatch.async", "DispatchQueue.async (serial queue) + one group wait"
    ) { iterations in
        let queue = DispatchQueue(label: "opctl.bench.dispatch")
        let group = DispatchGroup()
        DispatchBatches.run(iterations, waitingOn: group) { index in
            queue.async(group: group) { BlackHole.consume(index &* 2) }
        }
    }.crossThread()

    static let checkedContinuation = BenchCase.timed(
        "continuation.checked", "withCheckedContinuation resumed inline"
    ) { iterations in
        AsyncBlocking.run {
            for index in 0..<iterations {
                let value = await withCheckedContinuation { continuation in
                    continuation.resume(returning: index &* 2)
                }
                BlackHole.consume(value)
            }
        }
    }

    /// The peer a user would write instead of a scenario: each function is the async form of one
    /// callback step (a checked continuation resumed by the step), so both sides do the same
    /// work per step.
    static let threeAsyncFunctions = BenchCase.timed(
        "asyncawait.3steps", "three async functions awaited in a row, each a callback step behind a continuation"
    ) { iterations in
        AsyncBlocking.run {
            for index in 0..<iterations {
                let first = await asyncDouble(index)
                let second = await asyncDouble(first)
                BlackHole.consume(await asyncDouble(second))
            }
        }
    }

    @inline(never)
    private static func asyncDouble(_ value: Int) async -> Int {
        await withCheckedContinuation { continuation in
            continuation.resume(returning: value &* 2)
        }
    }

    static let taskAwait = BenchCase.timed("task.await", "Task {} + await", reference: "bridge.await") { iterations in
        AsyncBlocking.run {
            for index in 0..<iterations {
                BlackHole.consume(await Task { index &* 2 }.value)
            }
        }
    }.crossThread()
}

/// The hand-written baseline the engine's launch is held to: a final class that keeps itself
/// alive while it runs and finishes exactly once through an atomic flag.
///
/// It holds itself through a strong reference to itself, a cycle its finish breaks: what a
/// developer writes without unsafe code, as the engine is written.
final class SelfRetainingJob {
    private let finished = Atomic<Bool>(false)
    private var retention: SelfRetainingJob?

    /// Retains itself, then finishes at once with `input * 2`.
    @inline(never)
    func start(_ input: Int) {
        retention = self
        finish(input &* 2)
    }

    /// Lets the first finish through: releases itself and hands the output to the sink.
    @inline(never)
    func finish(_ output: Int) {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        retention = nil
        BlackHole.consume(output)
    }
}
