import Dispatch
import Operations

/// The cases that measure the engine: launches, the async bridge, scenarios and memory.
///
/// Operations are launched with a fresh context per launch (`OpContext(index)`), as callers do;
/// the operation object of `op.sync` is made once, as a factory-made operation is launched.
enum EngineCases {
    /// `op.sync`: launch → onFinish of a synchronous operation.
    static let syncLaunches: @Sendable (Int) -> Void = { iterations in
        let op = SyncDoubleOp()
        for index in 0..<iterations {
            op.launch(OpContext(index), onFinish: BlackHole.consumeResult)
        }
    }

    /// `op.async`: launches finished on a serial Dispatch queue, one group wait at the end.
    static let asyncLaunches: @Sendable (Int) -> Void = { iterations in
        let group = DispatchGroup()
        let op = DispatchedDoubleOp(queue: DispatchQueue(label: "opctl.bench.op-async"), group: group)
        DispatchBatches.run(iterations, waitingOn: group) { index in
            op.launch(OpContext(index), onFinish: BlackHole.consumeResult)
        }
    }

    /// `bridge.await`: `try await op.launch(context)` on a synchronous operation.
    static let bridgeAwaits: @Sendable (Int) -> Void = { iterations in
        let op = SyncDoubleOp()
        AsyncBlocking.awaitEach(iterations) { index in try await op.launch(OpContext(index)) }
    }

    /// `asyncop.await`: `bridge.await` with the operation written as an `async throws`
    /// function (``AsyncOp``) instead of a callback: the same bridge, plus the task its run gets.
    static let asyncOpAwaits: @Sendable (Int) -> Void = { iterations in
        let op = AsyncDoubleOp()
        AsyncBlocking.awaitEach(iterations) { index in try await op.launch(OpContext(index)) }
    }

    /// `ops.3byHand`: three operations, each made new and launched with the previous output,
    /// written the way a caller chains callbacks by hand.
    static let threeOpsByHand: @Sendable (Int) -> Void = { iterations in
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

    /// `ops.3viaProtocol`: `ops.3byHand`, each operation made by a factory the caller knows only
    /// as `() -> any Op<Int, Int>`, as code that runs operations of any type (an engine, a
    /// queue) must hold them: the difference from `ops.3byHand` is the call through the protocol.
    static let threeOpsThroughProtocol: @Sendable (Int) -> Void = { iterations in
        // Read from an array so that the optimiser cannot see which type the factory makes.
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

    /// `bridge.floor`: the least any bridge of an operation to async/await does — a cancellation
    /// handler on the calling task, an unsafe continuation, and the operation's launch through
    /// the `Op` protocol (as library code holds an operation of any type), resumed from
    /// `onFinish`.
    static let bridgeFloors: @Sendable (Int) -> Void = { iterations in
        let op = opaqueFactories[0]()
        AsyncBlocking.awaitEach(iterations) { index in try await launchedBare(op, OpContext(index)) }
    }

    @inline(never)
    private static func launchedBare(_ op: any Op<Int, Int>, _ context: OpContext<Int>) async throws -> Int {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                op.launch(context) { continuation.resume(with: $0) }
            }
        } onCancel: {
        }
    }

    private static let opaqueFactories: [@Sendable () -> any Op<Int, Int>] = [{ SyncDoubleOp() }]

    /// `scenario.3steps`: the same three operations as the steps of one scenario.
    static let threeStepScenario: @Sendable (Int) -> Void = { iterations in
        let scenario = threeSteps()
        for index in 0..<iterations {
            scenario.launch(OpContext(index), onFinish: BlackHole.consumeResult)
        }
    }

    /// `scenario.3steps.await`: the 3-step scenario awaited through the async bridge, as async
    /// code calls it.
    static let threeStepScenarioAwaited: @Sendable (Int) -> Void = { iterations in
        let scenario = threeSteps()
        AsyncBlocking.awaitEach(iterations) { index in try await scenario.launch(OpContext(index)) }
    }

    /// The scenario of `scenario.3steps` and `scenario.3steps.await`: three synchronous steps.
    private static func threeSteps() -> Scenario<Int, Int> {
        Scenario<Int, Int>("Bench3Steps") { chain in
            chain
                .then(Step { SyncDoubleOp() })
                .then(Step { SyncDoubleOp() })
                .then(Step { SyncDoubleOp() })
        }
    }

    /// `memory.deadline`: resident-size growth over `launches` sequential `op.sync` launches,
    /// each with a deadline 60 s away: a finished launch must release its deadline timer at
    /// once, not keep it queued until the deadline instant.
    static let deadlineResidentGrowth: @Sendable (Int) -> Int = { launches in
        let op = SyncDoubleOp()
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        return ResidentMemory.growth(over: launches) { index in
            op.launch(OpContext(index, deadline: deadline), onFinish: BlackHole.consumeResult)
        }
    }

    /// `memory.1M`: resident-size growth in bytes over `launches` sequential `op.sync` launches.
    static let residentGrowth: @Sendable (Int) -> Int = { launches in
        let op = SyncDoubleOp()
        return ResidentMemory.growth(over: launches) { index in
            op.launch(OpContext(index), onFinish: BlackHole.consumeResult)
        }
    }
}
