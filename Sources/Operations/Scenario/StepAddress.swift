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

    /// The position a compensation takes below the step it undoes: no step of a chain has it,
    /// so a compensation's address never meets a nested scenario's steps.
    static let compensationIndex = -1

    /// Whether this is the address of a compensation: the step that undid the step above it
    /// (see ``Step/compensated(by:input:)``).
    public var isCompensation: Bool { path.last?.index == Self.compensationIndex }

    /// The address of a step of a scenario launched at this address.
    func appending(index: Int, name: String) -> StepAddress {
        StepAddress(path: path + [Component(index: index, name: name)])
    }

    /// `0.AuthScenario/2.CodeOp`; a compensation reads `2.ReserveStockOp/undo.ReleaseStockOp`.
    public var description: String {
        path.map { component in
            let position = component.index == Self.compensationIndex ? "undo" : "\(component.index)"
            return "\(position).\(component.name)"
        }.joined(separator: "/")
    }
}

/// The position of a launch inside scenarios, carried by ``OpContext/scope``.
///
/// A scenario gives every step a scope, but few runs read it (an observer, a journal, a nested
/// scenario): a scope made by a scenario keeps its parent's address and its own position, and
/// builds the address (an array) only when ``address`` is read.
public struct ScenarioScope: Sendable, Hashable {
    /// The step this launch is.
    public var address: StepAddress {
        switch storage {
        case .built(let address): address
        case .step(let base, let index, let name): base.appending(index: index, name: name)
        }
    }

    enum Storage: Sendable {
        case built(StepAddress)
        case step(base: StepAddress, index: Int, name: String)
    }

    let storage: Storage

    /// Whether this launch starts a step again in a rerun, with the input a journal recorded
    /// for an attempt of an earlier run that did not finish: the person is asked afresh, so a
    /// screen shows no reason that belonged to the earlier attempt ("the code is wrong").
    public let resumesEarlierRun: Bool

    /// The attempts the launched operation reports making inside this launch of its step; `nil`
    /// outside a step's launch. Not part of the scope's identity.
    let innerAttempts: InnerAttempts?

    /// Creates a scope.
    ///
    /// - Parameters:
    ///   - address: The step this launch is.
    ///   - resumesEarlierRun: Whether the launch starts the step again in a rerun.
    public init(address: StepAddress, resumesEarlierRun: Bool = false) {
        storage = .built(address)
        self.resumesEarlierRun = resumesEarlierRun
        innerAttempts = nil
    }

    /// The scope of step `index`, called `name`, of a scenario launched at `base`.
    init(
        base: StepAddress, index: Int, name: String, resumesEarlierRun: Bool = false,
        innerAttempts: InnerAttempts? = nil
    ) {
        storage = .step(base: base, index: index, name: name)
        self.resumesEarlierRun = resumesEarlierRun
        self.innerAttempts = innerAttempts
    }

    public static func == (lhs: ScenarioScope, rhs: ScenarioScope) -> Bool {
        lhs.address == rhs.address
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(address)
    }
}
