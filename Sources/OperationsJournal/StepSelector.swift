public import Operations

/// Finds the step `rerun ID --from STEP` names in a scenario's shape, nested steps included.
///
/// A step is named by its name (`CodeOp`, found inside `VerificationScenario` inside the run's
/// scenario). When that is ambiguous, a path of names from any level down to the step is
/// accepted (`VerificationScenario/CodeOp`), and a component may carry its position in its
/// scenario (`2.CodeOp`, as ``StepAddress/description`` prints it) for two steps of one name in
/// one scenario.
public enum StepSelector {
    /// The address of the step `text` names in `shape`.
    ///
    /// ```swift
    /// let address = try StepSelector.address(named: "CodeOp", in: authScenario.shape)
    /// // [{2, VerificationScenario}, {1, CodeOp}]
    /// ```
    ///
    /// - Parameters:
    ///   - text: A step's name, or a path of names ending with it, separated by `/`.
    ///   - shape: The scenario the run launched.
    /// - Returns: The one step it names.
    /// - Throws: ``RerunFromError/unknownStep(_:choices:)`` listing the steps there are, or
    ///   ``RerunFromError/ambiguousStep(_:candidates:)`` listing the paths to tell them apart.
    public static func address(named text: String, in shape: ScenarioShape) throws(RerunFromError) -> StepAddress {
        let all = addresses(in: shape)
        let wanted = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let matches = all.filter { Self.matches($0, wanted) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .unknownStep(text, choices: names(of: all))
        default: throw .ambiguousStep(text, candidates: names(of: matches))
        }
    }

    /// Every step of `shape`, depth first, in the order a run reaches them.
    ///
    /// - Parameter shape: The scenario's shape.
    /// - Returns: Their addresses, nested steps after the step that launches them.
    public static func addresses(in shape: ScenarioShape) -> [StepAddress] {
        addresses(in: shape, under: [])
    }

    /// How `--from` shows `addresses`: their name paths, with positions where two would read alike.
    ///
    /// - Parameter addresses: The steps.
    /// - Returns: One text per step, each one ``address(named:in:)`` takes back.
    public static func names(of addresses: [StepAddress]) -> [String] {
        let plain = addresses.map(\.namePath)
        return addresses.enumerated().map { offset, address in
            plain.filter { $0 == plain[offset] }.count == 1
                ? plain[offset] : address.path.map { "\($0.index).\($0.name)" }.joined(separator: "/")
        }
    }

    private static func addresses(in shape: ScenarioShape, under path: [StepAddress.Component]) -> [StepAddress] {
        shape.steps.flatMap { step -> [StepAddress] in
            let address = StepAddress(path: path + [StepAddress.Component(index: step.index, name: step.name)])
            return [address] + (step.nested.map { addresses(in: $0, under: address.path) } ?? [])
        }
    }

    /// Whether the address ends with the wanted components, each a name or `INDEX.NAME`.
    private static func matches(_ address: StepAddress, _ wanted: [String]) -> Bool {
        guard wanted.count <= address.path.count else { return false }
        return zip(address.path.suffix(wanted.count), wanted).allSatisfy { component, text in
            text == component.name || text == "\(component.index).\(component.name)"
        }
    }
}
