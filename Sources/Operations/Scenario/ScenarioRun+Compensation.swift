import Synchronization

/// What a run keeps to undo its finished steps (``Step/compensated(by:input:)``).
struct Undoing: Sendable {
    /// The finished steps with a compensation, in the order they finished.
    var finished: [PendingUndo] = []
    /// The step whose failure ends the run, once one has failed for good.
    var failedStep: StepAddress?
}

extension ScenarioRun {
    /// Keeps a finished step's undo until the run ends.
    func remember(_ undo: PendingUndo) {
        undoing.withLock { $0.finished.append(undo) }
    }

    /// Notes that the step at `address` failed for good, for the journal's record of the undoing
    /// that may follow; the address is built only when there is something to undo.
    func noteFailure(at address: @autoclosure () -> StepAddress) {
        undoing.withLock { state in
            guard !state.finished.isEmpty else { return }
            state.failedStep = address()
        }
    }

    /// Ends the run with `error`, after undoing the finished steps that declare a compensation,
    /// last finished first.
    ///
    /// Only a failure for good is undone. A failure a rerun may get past — a cancellation, a
    /// transient error, a lost answer, a run that must launch nothing more (``RunHalted``) —
    /// leaves the run resumable instead: undoing it would throw away work a rerun can finish.
    func end(failing error: any Error) {
        let (undos, failedStep) = undoing.withLock { state in
            defer { state.finished = [] }
            return (state.finished, state.failedStep)
        }
        guard !undos.isEmpty, !error.mayPassOnRerun else { return ending.fail(error) }
        // On disk before the first compensation launches: a rerun then fails the step again
        // and goes on undoing, instead of trying it once more.
        report(.compensationStarted((error as? StepFailure)?.error ?? error), address: failedStep ?? base)
        if let trace, trace.isEnabled {
            let names = undos.reversed().map(\.step).joined(separator: ", ")
            trace.note("\((error as? StepFailure)?.failedOperation ?? name) failed for good: undo \(names)")
            trace.openFrame(.group, "compensation")
        }
        let walk = UndoWalk(run: self, failure: error, undos: Array(undos.reversed()))
        schedule { walk.undo(at: 0) }
    }
}

/// The compensations of one failed run, launched one after another from the run's loop.
private final class UndoWalk: Sendable {
    let run: ScenarioRun
    let failure: any Error
    let undos: [PendingUndo]
    private let outcome = Mutex(Outcome())

    private struct Outcome {
        var undone: [UndoneStep] = []
        var leftUndone: [CompensationFailure.LeftUndone] = []
    }

    init(run: ScenarioRun, failure: any Error, undos: [PendingUndo]) {
        self.run = run
        self.failure = failure
        self.undos = undos
    }

    /// Launches the compensation at `position`, or ends the run past the last one.
    func undo(at position: Int) {
        guard position < undos.count else { return end() }
        let pending = undos[position]
        // A run of its own below the undone step: the compensation's attempts, keys and
        // journal lines sit at its address, apart from the step's.
        let undoRun = ScenarioRun(
            name: run.name, context: run.context, base: pending.address, startedAt: run.startedAt, links: [],
            ending: run.ending, gate: nil)
        pending.start(undoRun) { result in
            guard case .failure(let error) = result else {
                self.outcome.withLock {
                    $0.undone.append(UndoneStep(address: pending.address, compensation: pending.compensation))
                }
                return self.run.schedule { self.undo(at: position + 1) }
            }
            // A run that must stop, or was cancelled, launches no other compensation; each one
            // left is owed, and a rerun goes on from here.
            let stops = error.haltsRun || error.isCancellation
            let left = self.undos[position...(stops ? self.undos.count - 1 : position)]
            self.outcome.withLock { state in
                state.leftUndone += left.map {
                    CompensationFailure.LeftUndone(address: $0.address, compensation: $0.compensation, error: error)
                }
            }
            if stops { return self.end() }
            self.run.schedule { self.undo(at: position + 1) }
        }
    }

    private func end() {
        if let trace = run.trace, trace.isEnabled { trace.closeFrame() }
        let (undone, leftUndone) = outcome.withLock { ($0.undone, $0.leftUndone) }
        // The failure says what its scenario undid, so an app can tell an effect undone from
        // one that never happened; a failure that is no step's (a `map` that threw) has no
        // place for it and goes on unchanged.
        guard !leftUndone.isEmpty else { return run.ending.fail((failure as? StepFailure)?.undoing(undone) ?? failure) }
        run.ending.fail(CompensationFailure(failure: failure, undone: undone, leftUndone: leftUndone))
    }
}

extension Error {
    /// Whether a rerun may get past this failure: it was a cancellation, a transient error, a
    /// lost answer, or a halt of the run — none of them a failure for good.
    var mayPassOnRerun: Bool {
        if isCancellation || haltsRun || outcomeIsUncertain { return true }
        let root = (self as? StepFailure)?.rootCause ?? self
        return (root as? any RetryableError)?.isTransient == true
    }
}
