/// What a scenario's builder keeps of each step for its shape; a nested shape is made when asked.
struct StepOutline: Sendable {
    let name: String
    let input: String
    let output: String
    let purity: Purity
    let conditional: Bool
    let nested: @Sendable () -> ScenarioShape?
    /// The name of the step that undoes this one (``Step/compensated(by:input:)``), if any.
    var undoneBy: String? = nil
    /// Why the step cannot be part of a scenario, found when it was built.
    var definitionProblem: ScenarioDefinitionError? = nil

    func shape(index: Int) -> ScenarioShape.StepShape {
        ScenarioShape.StepShape(
            index: index, name: name, input: input, output: output, purity: purity.description,
            conditional: conditional, nested: nested(), undoneBy: undoneBy)
    }
}
