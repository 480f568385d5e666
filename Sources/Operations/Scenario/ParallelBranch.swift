/// One branch of a parallel step, its output type erased so branches of different types run side by side.
struct ParallelBranch<Input: Sendable>: Sendable {
    let outline: StepOutline
    /// Starts the branch with `input` as step `index` of `run`; `finish` hears its result once.
    let start:
        @Sendable (_ input: Input, _ run: ScenarioRun, _ index: Int, _ finish: @escaping StepFinish<any Sendable>) ->
            Void

    var name: String { outline.name }

    init<Output: Sendable>(_ step: Step<Input, Output>) {
        outline = step.outline(conditional: false)
        start = { input, run, index, finish in
            StepLife(run: run, step: step, index: index) { finish($0.map { $0 }) }.start(input)
        }
    }
}

/// Unpacks the branches' outputs, in branch order, as the types the builder promised.
struct BranchOutputs: ~Copyable {
    private let values: [any Sendable]
    private var position = 0

    init(_ values: [any Sendable]) {
        self.values = values
    }

    /// Every output, as `type`: the outputs of a fan-out of one step type.
    static func all<Output>(_ values: [any Sendable], as type: Output.Type) -> [Output] {
        guard let outputs = values as? [Output] else {
            let handed = values.map { Swift.type(of: $0) }
            preconditionFailure("a parallel step's branches handed \(handed), not \(Output.self)")
        }
        return outputs
    }

    /// The next output, as `type`: a parallel step's builder typed each branch, so anything
    /// else is the engine's own mistake.
    mutating func next<Output>(_ type: Output.Type) -> Output {
        defer { position += 1 }
        guard let value = values[position] as? Output else {
            preconditionFailure("a parallel branch handed \(Swift.type(of: values[position])), not \(Output.self)")
        }
        return value
    }
}
