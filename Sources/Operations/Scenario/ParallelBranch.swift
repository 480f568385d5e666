/// One branch of a parallel step with its output type erased, so branches of different types
/// run side by side: what the step is, and how to start it in its own run.
///
/// A class: a launch reads each branch once per start, and a struct of names and an outline was
/// copied whole each time, a dozen reference counts per branch (`parallel.fanout1k`).
final class ParallelBranch<Input: Sendable>: Sendable {
    let name: String
    let purity: Purity
    let outline: StepOutline
    /// Starts the branch with `input` as step `index` of `run`; `finish` hears its result once.
    let start:
        @Sendable (_ input: Input, _ run: ScenarioRun, _ index: Int, _ finish: @escaping StepFinish<any Sendable>)
            -> Void

    init<Output: Sendable>(_ step: Step<Input, Output>) {
        name = step.name
        purity = step.purity
        outline = step.outline(conditional: false)
        start = { input, run, index, finish in
            StepLife(run: run, step: step, index: index) { result in finish(result.map { $0 }) }.start(input)
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
