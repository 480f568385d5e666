import Operations

/// The cases that weigh a parallel step against the chain of the same steps: what launching
/// branches side by side (a run, a ticket in the join, a shared token per step) costs beyond
/// launching them one after another.
enum ParallelCases {
    /// How many steps `scenario.chain1k` chains and `parallel.fanout1k` fans out.
    static let width = 1_000

    /// `scenario.chain1k`: one launch of a scenario of 1,000 synchronous steps chained.
    static let chainedSteps: @Sendable (Int) -> Void = { iterations in
        let scenario = chain(width)
        for index in 0..<iterations {
            scenario.launch(OpContext(index), onFinish: BlackHole.consumeResult)
        }
    }

    /// `parallel.fanout1k`: one launch of a scenario whose only step is a parallel step of the
    /// same 1,000 steps as branches.
    static let fannedOutSteps: @Sendable (Int) -> Void = { iterations in
        let scenario = fanOut(width)
        for index in 0..<iterations {
            scenario.launch(OpContext(index)) { BlackHole.consume((try? $0.get())?.count ?? -1) }
        }
    }

    /// `memory.parallel`: resident-size growth over `launches / 10` sequential launches of a
    /// scenario with a parallel step of four branches (100,000 with the default million), after
    /// a warm-up: a joined step must leave nothing behind (its branch runs, its token, its
    /// registration in the scenario's token).
    static let residentGrowth: @Sendable (Int) -> Int = { launches in
        let scenario = fanOut(4)
        let count = max(1, launches / 10)
        let token = CancellationToken()
        return ResidentMemory.growth(over: count) { index in
            scenario.launch(OpContext(index, cancellation: token)) { BlackHole.consume((try? $0.get())?.count ?? -1) }
        }
    }

    private static let step = Step { SyncDoubleOp() }

    private static func chain(_ steps: Int) -> Scenario<Int, Int> {
        Scenario<Int, Int>("BenchChain") { chain in
            (0..<steps).reduce(chain) { built, _ in built.then(step) }
        }
    }

    private static func fanOut(_ branches: Int) -> Scenario<Int, [Int]> {
        Scenario<Int, [Int]>("BenchFanOut") { chain in
            chain.parallel("FanOut", Array(repeating: step, count: branches))
        }
    }
}
