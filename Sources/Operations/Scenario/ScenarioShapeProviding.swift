/// Something that knows the shape of a scenario: a ``Scenario`` itself, a ``ScenarioShape``, or
/// a host's wrapper around a scenario (a CLI's catalog entry).
///
/// Creating and resuming journals takes one (`RunStore/create(scenario:settings:input:durability:)`,
/// `RunStore/resume(_:scenario:relaunchingInDoubt:durability:)`), so the shape a journal records is always the
/// one of the scenario that runs.
public protocol ScenarioShapeProviding {
    /// The scenario's shape.
    var shape: ScenarioShape { get }
}

extension ScenarioShape: ScenarioShapeProviding {
    /// The shape itself.
    public var shape: ScenarioShape { self }
}
