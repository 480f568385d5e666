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

        /// Creates a component: the step at `index` called `name`.
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
/// Equal scopes have equal addresses; a scope made by a scenario builds its address (an array)
/// only when ``address`` is read.
public struct ScenarioScope: Sendable, Hashable {
    /// The step this launch is.
    public var address: StepAddress {
        switch storage {
        case .built(let address): address
        case .step(let run, let index, let name, _): run.address(index: index, name: name)
        }
    }

    enum Storage: Sendable {
        case built(StepAddress)
        /// Attempt `attempt` (the run's count, ``ScenarioRun/nextAttempt()``) of step `index`,
        /// called `name`, of `run`.
        case step(run: ScenarioRun, index: Int, name: String, attempt: Int)
    }

    let storage: Storage

    /// Whether this launch starts a step again in a rerun, with the input a journal recorded
    /// for an attempt of an earlier run that did not finish: the person is asked afresh, so a
    /// screen shows no reason that belonged to the earlier attempt ("the code is wrong").
    public let resumesEarlierRun: Bool

    /// Creates a scope.
    ///
    /// - Parameters:
    ///   - address: The step this launch is.
    ///   - resumesEarlierRun: Whether the launch starts the step again in a rerun.
    public init(address: StepAddress, resumesEarlierRun: Bool = false) {
        storage = .built(address)
        self.resumesEarlierRun = resumesEarlierRun
    }

    /// The scope of attempt `attempt` of step `index`, called `name`, of `run`.
    init(run: ScenarioRun, index: Int, name: String, attempt: Int, resumesEarlierRun: Bool) {
        storage = .step(run: run, index: index, name: name, attempt: attempt)
        self.resumesEarlierRun = resumesEarlierRun
    }

    public static func == (lhs: ScenarioScope, rhs: ScenarioScope) -> Bool {
        lhs.address == rhs.address
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(address)
    }
}
