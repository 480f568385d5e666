import Synchronization

/// How a parallel step ends: when every branch has succeeded, or when the first one has.
enum ParallelMode: Sendable {
    /// Every branch's output, in branch order; the first failure cancels the others.
    case all
    /// The first branch to succeed; it cancels the others, and only all failing fails.
    case race
}

/// One launch of a parallel step: its branches, each a one-step run of its own below the
/// step's address (its own attempts, keys and journal lines), launched at once and joined.
///
/// The first failure (or a race's first success) fires the branches' shared token, linked to
/// the scenario's; the step finishes only when every branch has, so nothing is left in flight.
/// Each branch records its trace apart and is drawn whole in a `par` frame, not interleaved.
final class ParallelRun<Input: Sendable>: Sendable {
    private let parent: ScenarioRun
    private let index: Int
    private let name: String
    private let mode: ParallelMode
    private let output: String
    private let branches: [ParallelBranch<Input>]
    /// Hears the outputs in branch order (all), or the winner's alone (race).
    private let finish: StepFinish<[any Sendable]>
    private let token = CancellationToken()
    private let traces: [BranchTrace]?
    private let state: Mutex<ParallelJoinState>

    init(
        parent: ScenarioRun, index: Int, name: String, mode: ParallelMode, output: String,
        branches: [ParallelBranch<Input>], then finish: @escaping StepFinish<[any Sendable]>
    ) {
        self.parent = parent
        self.index = index
        self.name = name
        self.mode = mode
        self.output = output
        self.branches = branches
        self.finish = finish
        self.traces = parent.trace?.isEnabled == true ? branches.map { _ in BranchTrace() } : nil
        self.state = Mutex(
            ParallelJoinState(
                results: Array(repeating: nil, count: branches.count), remaining: branches.count,
                undos: Array(repeating: [], count: branches.count)))
    }

    private var address: StepAddress { parent.address(index: index, name: name) }

    func start(_ input: Input) {
        if parent.isObserved {
            parent.report(.stepLaunched, address: address, attempt: 1, value: input, purity: .pure)
            if let halt = parent.environment.observer?.haltingError {
                return finish(
                    .failure(StepFailure(scenario: parent.name, step: name, attempt: 1, error: RunHalted(halt))))
            }
        }
        if let scenarioToken = parent.cancellation {
            let registration = scenarioToken.onCancel { [token] in token.cancel() }
            state.withLock { $0.parentRegistration = registration }
        }
        let base = address
        // Each branch's run is made as it starts and lives only until it ends: a fan-out of a
        // thousand branches keeps the unfinished ones, not a thousand runs, in memory.
        for branch in branches.indices {
            let run = ScenarioRun(
                name: name, context: context(of: branch), base: base, startedAt: parent.startedAt, links: [],
                ending: parent.ending, gate: nil)
            branches[branch].start(input, run, branch) { self.branch(branch, finished: $0, in: run) }
        }
    }

    /// A branch's context: the shared token, the scenario's deadline, its own trace.
    private func context(of branch: Int) -> OpContext<Void> {
        var context = OpContext(cancellation: token, deadline: parent.context.deadline, environment: parent.environment)
        if let traces, let scope = parent.trace {
            context.trace = TraceScope(
                tracer: traces[branch], participant: scope.participant, launcherID: scope.launcherID)
        }
        return context
    }

    private func branch(_ branch: Int, finished result: Result<any Sendable, any Error>, in run: ScenarioRun) {
        let undos = run.undoing.withLock { $0.finished }
        let (isLast, decides) = state.withLock { state -> (Bool, Bool) in
            state.results[branch] = result
            if !undos.isEmpty { state.undos[branch] = undos }
            state.remaining -= 1
            // A failure decides a step that waits for all its branches; a success decides a race.
            let succeeded = if case .success = result { true } else { false }
            let decides = state.decidedBy == nil && succeeded == (mode == .race)
            if decides { state.decidedBy = branch }
            return (state.remaining == 0, decides)
        }
        if decides { token.cancel() }
        if isLast { end() }
    }

    private func end() {
        let (results, decidedBy, registration, undos) = state.withLock { state in
            (state.results.map { $0! }, state.decidedBy, state.parentRegistration, state.undos)
        }
        registration?.cancel()
        // What the branches finished is the scenario's to undo, with its other finished steps,
        // should this step or a later one fail for good; in the order the branches are listed.
        for undo in undos.joined() { parent.remember(undo) }
        drawBranches()
        let result = outcome(results, decidedBy: decidedBy)
        switch result {
        case .success(let outputs):
            if parent.isObserved {
                let value: any Sendable =
                    mode == .race
                    ? outputs[0]
                    : ParallelOutputs(outputs, type: output) { [branches] in branches[$0].name }
                parent.report(.stepSucceeded, address: address, attempt: 1, value: value)
            }
        case .failure(let error):
            parent.report(.stepFailed(error, willRetry: false, delay: nil), address: address, attempt: 1)
        }
        finish(result)
    }

    private func outcome(_ results: [Result<any Sendable, any Error>], decidedBy: Int?)
        -> Result<[any Sendable], any Error>
    {
        switch mode {
        case .all:
            guard let failed = decidedBy, case .failure(let error) = results[failed] else {
                return Result { try results.map { try $0.get() } }
            }
            // The scenario undoing its finished steps learns which branch failed, so that a
            // rerun fails that branch again instead of launching it.
            parent.noteFailure(at: address.appending(index: failed, name: branches[failed].name))
            return .failure(StepFailure(scenario: parent.name, step: name, attempt: 1, error: error))
        case .race:
            if let winner = decidedBy, case .success(let value) = results[winner] { return .success([value]) }
            if parent.cancellation?.isCancelled == true {
                return .failure(StepFailure(scenario: parent.name, step: name, attempt: 1, error: OpError.cancelled))
            }
            let failures = results.compactMap { result -> StepFailure? in
                guard case .failure(let error) = result else { return nil }
                return error as? StepFailure
            }
            return .failure(
                StepFailure(
                    scenario: parent.name, step: name, attempt: 1,
                    error: ParallelFailure(step: name, failures: failures)))
        }
    }

    private func drawBranches() {
        guard let traces, let scope = parent.trace, let tracer = scope.tracer else { return }
        scope.openFrame(.par, name)
        for (branch, trace) in traces.enumerated() {
            if branch > 0 { scope.nextBranch(branches[branch].name) }
            for event in trace.drain(forwardingTo: tracer) { tracer.record(event) }
        }
        scope.closeFrame()
    }
}

/// What a parallel step's join keeps while its branches run.
struct ParallelJoinState {
    var results: [Result<any Sendable, any Error>?]
    var remaining: Int
    /// The branch whose failure (all) or success (race) decided the step.
    var decidedBy: Int?
    var parentRegistration: CancellationRegistration?
    /// What each branch finished that declares a compensation, kept as its run goes.
    var undos: [[PendingUndo]]
}

/// Where a branch of a parallel step records its trace until the step draws it; an event that
/// comes after (a screen closing late) goes straight on to the run's tracer.
final class BranchTrace: Tracer {
    private let state = Mutex<(events: [TraceEvent], forwarding: (any Tracer)?)>(([], nil))

    func record(_ event: consuming TraceEvent) {
        let event = event
        let forward = state.withLock { state -> (any Tracer)? in
            if state.forwarding == nil { state.events.append(event) }
            return state.forwarding
        }
        forward?.record(event)
    }

    /// The events so far, taken out; later ones go to `tracer` as they come.
    func drain(forwardingTo tracer: any Tracer) -> [TraceEvent] {
        state.withLock { state in
            defer { state = ([], tracer) }
            return state.events
        }
    }
}
