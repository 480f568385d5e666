extension ScenarioBuilder {
    /// Appends a step that launches its branches at once and goes on with all their outputs,
    /// typed as a tuple in branch order — checked by the compiler like a chain.
    ///
    /// ```swift
    /// .parallel("PriceAndStock", Step(factory.makePriceOrderOp), Step(factory.makeCheckStockOp))
    /// .map { price, stock in PricedStock(price: price, stock: stock) }
    /// ```
    ///
    /// Each branch is a step of its own, journaled at its address below the parallel step's
    /// (`2.PriceAndStock/1.CheckStockOp`), with its retries and its idempotency keys: a rerun
    /// replays the branches that finished and launches only the others. The first branch to
    /// fail cancels the others (their operations see the context's token fire) and, once they
    /// have all finished, fails the step with a ``StepFailure`` that names it. A run's diagram
    /// draws the branches one after another in a `par` frame.
    ///
    /// - Parameters:
    ///   - name: The parallel step's name in progress, journals and diagrams.
    ///   - first: The first branch; it takes the current value.
    ///   - rest: The other branches; each takes the current value.
    /// - Returns: The chain, producing the branches' outputs as a tuple.
    public consuming func parallel<First: Sendable, each Rest: Sendable>(
        _ name: String, _ first: Step<Current, First>, _ rest: repeat Step<Current, each Rest>
    ) -> ScenarioBuilder<Input, (First, repeat each Rest)> {
        var branches = [ParallelBranch(first)]
        for step in repeat each rest { branches.append(ParallelBranch(step)) }
        return joining(name, branches, mode: .all, output: (First, repeat each Rest).self) { _, values, _ in
            var outputs = BranchOutputs(values)
            return (outputs.next(First.self), repeat outputs.next((each Rest).self))
        }
    }

    /// Appends a step that launches its branches at once, then builds the next value from the
    /// value it was given and the branches' outputs: what ``then(_:input:combine:)`` is to a
    /// single step, for a parallel one.
    ///
    /// ```swift
    /// .parallel("PriceAndReserve", Step(factory.makePriceOrderOp), Step(factory.makeReserveStockOp)) {
    ///     order, price, reservation in ReservedOrder(order: order.priced(price), reservation: reservation)
    /// }
    /// ```
    ///
    /// The step is the one ``parallel(_:_:_:)`` makes, the same in the journal; `combine` runs
    /// after it, again on a resumed run, so keep it a pure function of its arguments: the
    /// current value and each branch's output in branch order.
    public consuming func parallel<First: Sendable, each Rest: Sendable, Next: Sendable>(
        _ name: String, _ first: Step<Current, First>, _ rest: repeat Step<Current, each Rest>,
        combine: @escaping @Sendable (Current, First, repeat each Rest) -> Next
    ) -> ScenarioBuilder<Input, Next> {
        var branches = [ParallelBranch(first)]
        for step in repeat each rest { branches.append(ParallelBranch(step)) }
        return joining(name, branches, mode: .all, output: (First, repeat each Rest).self) { value, values, run in
            ValueTrace.computed(
                Next.self, from: { branchTypes(Current.self, First.self, repeat (each Rest).self) }, trace: run.trace)
            var outputs = BranchOutputs(values)
            return combine(value, outputs.next(First.self), repeat outputs.next((each Rest).self))
        }
    }

    /// Appends a step that launches any number of branches of one type at once and goes on with
    /// their outputs in branch order (see ``parallel(_:_:_:)``): a fan-out over a list.
    ///
    /// ```swift
    /// .parallel("PriceEachLine", order.lines.map { line in Step("Price \(line.sku)") { PriceLineOp(line) } })
    /// ```
    ///
    /// An empty list is refused: every launch of the scenario fails with
    /// ``ScenarioDefinitionError/parallelWithoutBranches(step:)`` before a step launches.
    public consuming func parallel<Output: Sendable>(_ name: String, _ branches: [Step<Current, Output>])
        -> ScenarioBuilder<Input, [Output]>
    {
        joining(name, branches.map(ParallelBranch.init), mode: .all, output: [Output].self) { _, values, _ in
            BranchOutputs.all(values, as: Output.self)
        }
    }

    /// Appends a step that launches any number of branches of one type at once, then builds the
    /// next value from the value it was given and their outputs in branch order (see
    /// ``parallel(_:_:_:combine:)``).
    ///
    /// ```swift
    /// .parallel("PriceEachLine", lines.map { line in Step("Price \(line.sku)") { PriceLineOp(line) } }) {
    ///     order, prices in order.priced(prices)
    /// }
    /// ```
    ///
    /// An empty list is refused as ``parallel(_:_:)`` refuses it.
    public consuming func parallel<Output: Sendable, Next: Sendable>(
        _ name: String, _ branches: [Step<Current, Output>],
        combine: @escaping @Sendable (Current, [Output]) -> Next
    ) -> ScenarioBuilder<Input, Next> {
        joining(name, branches.map(ParallelBranch.init), mode: .all, output: [Output].self) { value, values, run in
            ValueTrace.computed(Next.self, from: { [Current.self, [Output].self] }, trace: run.trace)
            return combine(value, BranchOutputs.all(values, as: Output.self))
        }
    }

    /// Appends a step that launches its branches at once and goes on with the output of the
    /// first to succeed; it cancels the others. It fails only when every branch fails, with a
    /// ``ParallelFailure`` naming each.
    ///
    /// ```swift
    /// .race("FastestQuote", [Step(factory.makeQuoteFromAOp), Step(factory.makeQuoteFromBOp)])
    /// ```
    ///
    /// A rerun replays the race's recorded winner when its output type is `Codable`; otherwise
    /// it runs the race again, replaying the branches that had finished. It needs at least one
    /// branch.
    public consuming func race<Output: Sendable>(_ name: String, _ branches: [Step<Current, Output>])
        -> ScenarioBuilder<Input, Output>
    {
        joining(name, branches.map(ParallelBranch.init), mode: .race, output: Output.self) { _, values, _ in
            var outputs = BranchOutputs(values)
            return outputs.next(Output.self)
        }
    }

    /// The link of a parallel step: replays a race's recorded winner in a rerun when it can,
    /// otherwise launches the branches and hands on what `assemble` makes of their outputs.
    /// A step that waits for all is never replayed whole: each branch replays from its own
    /// record, so their compensations are kept and a branch not recorded runs again.
    private consuming func joining<Next: Sendable>(
        _ name: String, _ branches: [ParallelBranch<Current>], mode: ParallelMode, output: Any.Type,
        assemble: @escaping @Sendable (_ value: Current, _ outputs: [any Sendable], _ run: ScenarioRun) -> Next
    ) -> ScenarioBuilder<Input, Next> {
        let index = outlines.count
        let branchOutlines = branches.map(\.outline)
        let outputName = String(describing: output)
        // Pure as a step: it acts only through its branches, which the journal judges one by one.
        var outline = StepOutline(
            name: name, input: String(describing: Current.self), output: outputName, purity: .pure,
            conditional: false,
            nested: {
                ScenarioShape(
                    name: name, steps: branchOutlines.enumerated().map { index, outline in outline.shape(index: index) }
                )
            })
        if branches.isEmpty { outline.definitionProblem = .parallelWithoutBranches(step: name) }
        return appending(outline, step: name) { value, run, position in
            if mode == .race, let replay = run.environment.replay,
                case .replay(let output)? = try? replay.resumption(
                    at: run.address(index: index, name: name), as: Next.self, purity: .pure)
            {
                run.report(.stepReplayed, address: run.address(index: index, name: name), value: output)
                return run.pass(.success(output), after: position)
            }
            ParallelRun(
                parent: run, index: index, name: name, mode: mode, output: outputName, branches: branches
            ) { result in
                run.pass(result.map { assemble(value, $0, run) }, after: position)
            }.start(value)
        }
    }
}

/// The types a parallel step's `combine` is drawn from, in order.
private func branchTypes<Current, First, each Rest>(
    _ current: Current.Type, _ first: First.Type, _ rest: repeat (each Rest).Type
) -> [Any.Type] {
    var types: [Any.Type] = [current, first]
    for type in repeat each rest { types.append(type) }
    return types
}
