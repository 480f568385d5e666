/// How a finished step is undone: by which compensation, started for its input and output.
struct StepUndo<Input: Sendable, Output: Sendable>: Sendable {
    let name: String
    let start:
        @Sendable (_ input: Input, _ output: Output, _ run: ScenarioRun, _ then: @escaping StepFinish<Void>) -> Void
}

/// A finished step waiting to be undone should a later step of its run fail for good.
struct PendingUndo: Sendable {
    let step: String
    let compensation: String
    /// Where the finished step sits; its compensation is journaled just below it.
    let address: StepAddress
    let start: @Sendable (_ run: ScenarioRun, _ then: @escaping StepFinish<Void>) -> Void
}

extension Step {
    /// The same step, undone by `compensation` when a later step of its scenario fails for good.
    ///
    /// A scenario that fails for good — its retries spent, its failure handler given up, and
    /// the error neither transient nor a lost answer (``RetryableError``,
    /// ``OutcomeUncertainError``), which a rerun may get past — undoes the steps it finished
    /// that declare a compensation, last finished first: the checkout releases the stock it
    /// reserved when the card is declined. Each compensation is a step like any other:
    /// journaled, retried by its own policy, launched with an idempotency key, and resumed after
    /// a kill; a run killed while undoing goes on undoing when it is rerun. A cancelled run
    /// undoes nothing: it is interrupted, not failed.
    ///
    /// ```swift
    /// Step(factory.makeReserveStockOp)
    ///     .compensated(by: Step(factory.makeReleaseStockOp)) { order, reservation in reservation }
    /// ```
    ///
    /// A pure step has nothing to undo; giving it a compensation stops the scenario's launch
    /// with ``ScenarioDefinitionError/compensationOnPureStep(step:compensation:)``.
    ///
    /// The compensation's output is ignored; `input` makes its input from this step's input and
    /// output.
    public func compensated<UndoInput: Sendable, UndoOutput: Sendable>(
        by compensation: Step<UndoInput, UndoOutput>,
        input: @escaping @Sendable (Input, Output) -> UndoInput
    ) -> Step {
        let undo = StepUndo<Input, Output>(name: compensation.name) { stepInput, stepOutput, run, then in
            StepLife(run: run, step: compensation, index: StepAddress.compensationIndex) { result in
                then(result.map { _ in () })
            }.start(input(stepInput, stepOutput))
        }
        var step = self
        step.undo = undo
        return step
    }

    /// The same step, undone by `compensation` launched with this step's output when a later
    /// step of its scenario fails for good (see ``compensated(by:input:)``).
    ///
    /// ```swift
    /// Step(factory.makeReserveStockOp).compensated(by: Step(factory.makeReleaseStockOp))
    /// ```
    ///
    public func compensated<UndoOutput: Sendable>(by compensation: Step<Output, UndoOutput>) -> Step {
        compensated(by: compensation) { _, output in output }
    }

    func pendingUndo(input: Input, output: Output, address: StepAddress) -> PendingUndo? {
        guard let undo else { return nil }
        return PendingUndo(step: name, compensation: undo.name, address: address) { run, then in
            undo.start(input, output, run, then)
        }
    }
}
