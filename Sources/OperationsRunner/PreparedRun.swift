public import Foundation
public import Operations

/// What a program prepared for one run or rerun of one of its runnables, from the command line:
/// everything the runner needs to journal, launch and report it. Made by the program's
/// ``RunnerConfiguration/prepareRun`` and ``RunnerConfiguration/prepareRerun``.
///
/// The runner calls ``launch`` and blocks the calling thread — the process's main thread — until
/// the run finishes. So whatever the launched scenario shows must answer without the main actor:
/// a `@MainActor` screen would wait for the main thread the runner is holding, and the run would
/// never finish (see ``RunnerProgram``). Build the run with screens that answer on their own
/// thread or queue.
public struct PreparedRun<Input: Codable & Sendable>: Sendable {
    /// The shape of what it launches, recorded in a new run's journal and checked by a rerun.
    public var shape: ScenarioShape
    /// The settings a new run's journal header records (what a rerun needs to go on alike).
    public var settings: [String: String]
    /// The run's input, made once the state directory is ready (a rerun reads it from the
    /// journal); `nil` when a screen will ask for it.
    public var makeInput: @Sendable () throws -> Input?
    /// How a run that did not succeed reads: given the runner's reading of it
    /// (``RunFailure/reading``), the reading to print — the same, or one in the program's
    /// words (a hint, a failure a rerun cannot help, the words a rerun will need).
    public var explain: @Sendable (_ failure: RunFailure) -> FailureReading
    /// Called with a rerun's journal once it is resumed, before the launch (opctl saves the
    /// settings given again beside it).
    public var resumed: @Sendable (_ journal: URL) -> Void
    /// Launches it and reports its outcome. It runs while the runner blocks the main thread:
    /// nothing it launches may wait for the main actor.
    public var launch: @Sendable (OpContext<Input?>, @escaping OnFinish<RunOutcome>) -> Void

    /// Creates a prepared run from its parts, each as its property says; by default no settings,
    /// the runner's reading of a failure, and nothing done when a rerun's journal is resumed.
    public init(
        shape: ScenarioShape, settings: [String: String] = [:],
        explain: @escaping @Sendable (_ failure: RunFailure) -> FailureReading = { $0.reading },
        makeInput: @escaping @Sendable () throws -> Input?,
        resumed: @escaping @Sendable (_ journal: URL) -> Void = { _ in },
        launch: @escaping @Sendable (OpContext<Input?>, @escaping OnFinish<RunOutcome>) -> Void
    ) {
        self.shape = shape
        self.settings = settings
        self.explain = explain
        self.makeInput = makeInput
        self.resumed = resumed
        self.launch = launch
    }
}
