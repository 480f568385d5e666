public import Operations

/// Finds the step `rerun ID --from STEP` names in a scenario's shape, nested steps included.
///
/// A step is named by its name (`CodeOp`, found inside `VerificationScenario` inside the run's
/// scenario). When that is ambiguous, a path of names from any level down to the step is
/// accepted (`VerificationScenario/CodeOp`); a leading `/` anchors the path at the run's
/// scenario (`/PhoneOp` is the top-level PhoneOp, not the one inside `VerificationScenario`);
/// and a component may carry its position in its scenario (`2.CodeOp`, as
/// `StepAddress.description` prints it) for two steps of one name in one scenario.
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
    /// - Throws: ``RerunFromError/unknownStep(_:choices:)`` listing the steps there are, or
    ///   ``RerunFromError/ambiguousStep(_:candidates:)`` listing the paths to tell them apart.
    public static func address(named text: String, in shape: ScenarioShape) throws(RerunFromError) -> StepAddress {
        let all = addresses(in: shape)
        let anchored = text.hasPrefix("/")
        let wanted = text.dropFirst(anchored ? 1 : 0).split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        let matches = all.filter { Self.matches($0, wanted) && (!anchored || $0.path.count == wanted.count) }
        switch matches.count {
        case 1: return matches[0]
        case 0: throw .unknownStep(text, choices: names(of: all))
        default: throw .ambiguousStep(text, candidates: names(of: matches))
        }
    }

    /// Every step of `shape`, depth first, in the order a run reaches them.
    public static func addresses(in shape: ScenarioShape) -> [StepAddress] {
        addresses(in: shape, under: [])
    }

    /// How `--from` shows `addresses`: their name paths; anchored with `/` where another step's
    /// path ends the same way, and with positions where two read alike.
    ///
    /// - Returns: One text per step, each one ``address(named:in:)`` takes back to it.
    public static func names(of addresses: [StepAddress]) -> [String] {
        let names = addresses.map { $0.path.map(\.name) }
        return addresses.enumerated().map { offset, address in
            let own = names[offset]
            let others = names.enumerated().filter { $0.offset != offset }.map(\.element)
            if others.contains(own) {
                return "/" + address.path.map { "\($0.index).\($0.name)" }.joined(separator: "/")
            }
            return others.contains { $0.count > own.count && Array($0.suffix(own.count)) == own }
                ? "/" + address.namePath : address.namePath
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
