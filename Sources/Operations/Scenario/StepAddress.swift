/// Where a step sits in a run: the chain of steps from the outermost scenario down to it.
///
/// Addresses are stable across runs of the same scenario, so a journal can match a step of a
/// resumed run with the same step of the run that failed.
public struct StepAddress: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One level of the path: the step's position in its scenario and its name.
    public struct Component: Sendable, Hashable, Codable {
        /// Position in the scenario, from 0.
        public let index: Int
        /// The step's name.
        public let name: String

        /// Creates a component.
        public init(index: Int, name: String) {
            self.index = index
            self.name = name
        }
    }

    /// Outermost first; the last component is the step itself.
    public let path: [Component]

    /// Creates an address.
    public init(path: [Component]) {
        self.path = path
    }

    /// The step's own name.
    public var name: String { path.last?.name ?? "" }

    /// The address of a step of a scenario launched at this address.
    func appending(index: Int, name: String) -> StepAddress {
        StepAddress(path: path + [Component(index: index, name: name)])
    }

    /// `0.AuthScenario/2.CodeOp`.
    public var description: String {
        path.map { "\($0.index).\($0.name)" }.joined(separator: "/")
    }
}

/// The position of a launch inside scenarios, carried by ``OpContext/scope``.
public struct ScenarioScope: Sendable, Hashable {
    /// The step this launch is.
    public let address: StepAddress

    /// Creates a scope.
    public init(address: StepAddress) {
        self.address = address
    }
}
