import Dispatch
import Operations

/// The cases that measure the engine: launches, the async bridge, scenarios and memory.
enum EngineCases {
    static let opSync = BenchCase.timed(
        "op.sync", "engine operation, launch → onFinish synchronously", reference: "baseline.selfRetain",
        BenchCase.launches { SyncDoubleOp() })

    /// Launches finished on a serial Dispatch queue, one group wait per batch.
    static let opAsync = BenchCase.timed(
        "op.async", "engine operation finished from another thread (serial queue)", reference: "dispatch.async"
    ) { iterations in
        let group = DispatchGroup()
        let op = DispatchedDoubleOp(queue: DispatchQueue(label: "opctl.bench.op-async"), group: group)
        DispatchBatches.run(iterations, waitingOn: group) { index in
            op.launch(OpContext(index), onFinish: BlackHole.consumeResult)
        }
    }.crossThread()

    static let bridgeAwait = BenchCase.timed(
        "bridge.await", "the engine's async/await bridge on a synchronous operation",
        reference: "continuation.checked", BenchCase.awaits { SyncDoubleOp() })

    /// The least any bridge of an operation to async/await does: the operation is launched
    /// through the `Op` protocol, as library code holds an operation of any type.
    static let bridgeFloor = BenchCase.timed(
        "bridge.floor",
        "the least a bridge does: task cancellation handler, unsafe continuation, one launch through Op",
        reference: "continuation.checked"
    ) { iterations in
        let op = opaqueFactories[0]()
        AsyncBlocking.awaitEach(iterations) { index in try await launchedBare(op, OpContext(index)) }
    }

    /// `bridge.await` with the operation written as an `async throws` function (``AsyncOp``)
    /// instead of a callback, awaited as its type: `AsyncOp`'s own `launch(_:)`, which runs it in
    /// the awaiting task, not through a generic `Op` as ``BenchCase/awaits(_:)`` does (Docs/Benchmarks.md).
    static let asyncOpAwait = BenchCase.timed(
        "asyncop.await", "the same operation written as an async throws function (AsyncOp), awaited",
        reference: "bridge.await", targets: [.ratioAtMost(1.5)]
    ) { iterations in
        let op = AsyncDoubleOp()
        AsyncBlocking.awaitEach(iterations) { index in try await op.launch(OpContext(index)) }
    }

    /// Three operations, each made new and launched with the previous output, written the way a
    /// caller chains callbacks by hand.
    static let threeOpsByHand = BenchCase.timed(
        "ops.3byHand", "three operations made and launched one after another by hand"
    ) { iterations in
        for index in 0..<iterations {
            let context = OpContext(index)
            SyncDoubleOp().launch(context) { first in
                guard case .success(let first) = first else { return BlackHole.consume(-1) }
                SyncDoubleOp().launch(context.with(input: first)) { second in
                    guard case .success(let second) = second else { return BlackHole.consume(-1) }
                    SyncDoubleOp().launch(context.with(input: second), onFinish: BlackHole.consumeResult)
                }
            }
        }
    }

    /// `ops.3byHand`, each operation made by a factory the caller knows only as
    /// `() -> any Op<Int, Int>`, as code that runs operations of any type (an engine, a queue)
    /// must hold them: the difference from `ops.3byHand` is the call through the protocol.
    static let threeOpsThroughProtocol = BenchCase.timed(
        "ops.3viaProtocol", "the same, each launched through `any Op<Int, Int>` as an engine holds them",
        reference: "ops.3byHand"
    ) { iterations in
        let make = opaqueFactories[0]
        for index in 0..<iterations {
            let context = OpContext(index)
            make().launch(context) { first in
                guard case .success(let first) = first else { return BlackHole.consume(-1) }
                make().launch(context.with(input: first)) { second in
                    guard case .success(let second) = second else { return BlackHole.consume(-1) }
                    make().launch(context.with(input: second), onFinish: BlackHole.consumeResult)
                }
            }
        }
    }

    static let threeStepScenario = BenchCase.timed(
        "scenario.3steps", "a 3-step scenario of the same operations", reference: "opqueue.batch",
        BenchCase.launches { threeSteps() })

    static let threeStepScenarioAwaited = BenchCase.timed(
        "scenario.3steps.await", "the 3-step scenario awaited through the async bridge",
        reference: "asyncawait.3steps", BenchCase.awaits { threeSteps() })

    static let memory = BenchCase(
        id: "memory.1M", summary: "resident-size growth over a million sequential op.sync launches",
        reference: nil, targets: [.bytesBelow(1_000_000)], measure: .residentGrowth(residentGrowth(deadline: false)))

    /// A finished launch must release its deadline timer at once, not keep it queued until the
    /// deadline instant.
    static let memoryWithDeadline = BenchCase(
        id: "memory.deadline",
        summary: "resident-size growth over a million sequential op.sync launches with a 60 s deadline",
        reference: nil, targets: [.bytesBelow(1_000_000)], measure: .residentGrowth(residentGrowth(deadline: true)))

    @inline(never)
    private static func launchedBare(_ op: any Op<Int, Int>, _ context: OpContext<Int>) async throws -> Int {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                op.launch(context) { continuation.resume(with: $0) }
            }
        } onCancel: {
        }
    }

    /// Read from an array so that the optimiser cannot see which type the factory makes.
    private static let opaqueFactories: [@Sendable () -> any Op<Int, Int>] = [{ SyncDoubleOp() }]

    /// The scenario of `scenario.3steps` and `scenario.3steps.await`: three synchronous steps.
    private static func threeSteps() -> Scenario<Int, Int> {
        Scenario<Int, Int>("Bench3Steps") { chain in
            chain
                .then(Step { SyncDoubleOp() })
                .then(Step { SyncDoubleOp() })
                .then(Step { SyncDoubleOp() })
        }
    }

    /// Resident-size growth in bytes over `launches` sequential `op.sync` launches, each with a
    /// deadline 60 s away when `deadline`.
    private static func residentGrowth(deadline: Bool) -> @Sendable (Int) -> Int {
        { launches in
            let op = SyncDoubleOp()
            let instant = deadline ? ContinuousClock.now.advanced(by: .seconds(60)) : nil
            return ResidentMemory.growth(over: launches) { index in
                op.launch(OpContext(index, deadline: instant), onFinish: BlackHole.consumeResult)
            }
        }
    }
}
