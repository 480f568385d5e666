import Operations

/// The cases that weigh a parallel step against the chain of the same steps: what launching
/// branches side by side (a run, a ticket in the join, a shared token per step) costs beyond
/// launching them one after another.
enum ParallelCases {
    /// How many steps `scenario.chain1k` chains and `parallel.fanout1k` fans out.
    static let width = 1_000

    static let chain = BenchCase.timed(
        "scenario.chain1k", "a scenario of 1,000 synchronous steps chained", BenchCase.launches { chain(width) })

    static let fanOut = BenchCase.timed(
        "parallel.fanout1k", "the same 1,000 steps as the branches of one parallel step", reference: "scenario.chain1k"
    ) { iterations in
        let scenario = fanOut(width)
        for index in 0..<iterations {
            scenario.launch(OpContext(index)) { BlackHole.consume((try? $0.get())?.count ?? -1) }
        }
    }

    /// `launches / 10` launches (100,000 with the default million), after a warm-up: a joined
    /// step must leave nothing behind (its branch runs, its token, its registration in the
    /// scenario's token).
    static let memory = BenchCase(
        id: "memory.parallel",
        summary: "resident-size growth over 100,000 sequential launches of a 4-branch parallel step",
        reference: nil, targets: [.bytesBelow(1_000_000)],
        measure: .residentGrowth { launches in
            let scenario = fanOut(4)
            let token = CancellationToken()
            return ResidentMemory.growth(over: max(1, launches / 10)) { index in
                scenario.launch(OpContext(index, cancellation: token)) {
                    BlackHole.consume((try? $0.get())?.count ?? -1)
                }
            }
        })

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
