import Synchronization

/// Keeps what an event handler's launches did (``HandledEvent/Launch``), for the run's observers
/// to get with the reaction (``ScenarioEvent/Kind/eventHandled(_:)``); halts when they halt.
final class ReactionRecorder: ScenarioObserver {
    private let run: any ScenarioObserver
    private let state = Mutex(State())

    private struct State {
        var root: String?
        var launches: [HandledEvent.Launch] = []
    }

    init(run: any ScenarioObserver) {
        self.run = run
    }

    func scenario(_ event: ScenarioEvent) {
        state.withLock { state in
            // A scenario the reaction launched is its own root: its steps' addresses, those of
            // the scenarios nested in it included, start below it.
            if event.address.path.isEmpty, state.root == nil { state.root = event.scenario }
            let path = [state.root ?? event.scenario] + event.address.path.map(\.name)
            let index = Self.index(of: path, in: &state.launches)
            switch event.kind {
            case .scenarioStarted:
                break
            case .stepLaunched:
                state.launches[index].attempts += 1
                state.launches[index].outcome = .unfinished
            case .stepSucceeded, .scenarioSucceeded:
                state.launches[index].outcome = .succeeded
                state.launches[index].output = event.value.flatMap { TraceLabel.describe($0) }
            case .stepFailed(let error, let willRetry, _):
                guard !willRetry else { return }
                state.launches[index].outcome = .failed
                state.launches[index].error = TraceLabel.describe(error) ?? "\(error)"
            case .scenarioFailed(let error):
                state.launches[index].outcome = .failed
                state.launches[index].error = TraceLabel.describe(error) ?? "\(error)"
            case .stepSkipped:
                state.launches[index].outcome = .skipped
            case .stepReplayed, .compensationStarted, .polling, .eventHandled:
                break
            }
        }
    }

    var haltingError: (any Error)? { run.haltingError }

    var launched: [HandledEvent.Launch] { state.withLock(\.launches) }

    private static func index(of path: [String], in launches: inout [HandledEvent.Launch]) -> Int {
        if let index = launches.firstIndex(where: { $0.path == path }) { return index }
        launches.append(HandledEvent.Launch(path: path, outcome: .unfinished, attempts: 0))
        return launches.count - 1
    }
}
