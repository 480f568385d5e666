public import Foundation
public import Operations

/// What a program prepared for one run or rerun of one of its runnables, from the command line:
/// everything the runner needs to journal, launch and report it. Made by
/// ``LaunchingProgram/prepareRun(_:arguments:console:stateDirectory:)`` and
/// ``LaunchingProgram/prepareRerun(_:record:arguments:console:stateDirectory:)``.
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
    /// What a failed run left behind, said under its error.
    public var failureHint: String?
    /// What the program says about the run (``ExecutionHooks``).
    public var hooks: ExecutionHooks
    /// Called with a rerun's journal once it is resumed, before the launch (opctl saves the
    /// settings given again beside it).
    public var resumed: @Sendable (_ journal: URL) -> Void
    /// Launches it and reports its outcome. It runs while the runner blocks the main thread:
    /// nothing it launches may wait for the main actor.
    public var launch: @Sendable (OpContext<Input?>, @escaping OnFinish<RunOutcome>) -> Void

    /// Creates a prepared run.
    ///
    /// - Parameters:
    ///   - shape: The shape of what it launches.
    ///   - settings: The settings a new run's journal header records.
    ///   - failureHint: What a failed run left behind.
    ///   - hooks: What the program says about the run.
    ///   - makeInput: The run's input, made once the state directory is ready.
    ///   - resumed: Called with a rerun's resumed journal before the launch.
    ///   - launch: Launches it and reports its outcome.
    public init(
        shape: ScenarioShape, settings: [String: String] = [:], failureHint: String? = nil,
        hooks: ExecutionHooks = ExecutionHooks(), makeInput: @escaping @Sendable () throws -> Input?,
        resumed: @escaping @Sendable (_ journal: URL) -> Void = { _ in },
        launch: @escaping @Sendable (OpContext<Input?>, @escaping OnFinish<RunOutcome>) -> Void
    ) {
        self.shape = shape
        self.settings = settings
        self.failureHint = failureHint
        self.hooks = hooks
        self.makeInput = makeInput
        self.resumed = resumed
        self.launch = launch
    }
}
