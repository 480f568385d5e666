import OperationsTesting

extension ExplorationDepth {
    /// The depth of the checkout's other explorations: every schedule of two faults with
    /// `OPCTL_STRESS=1`. The checkout's own flow is always explored to two faults.
    static let suite = ExplorationDepth.full(when: "OPCTL_STRESS")
}
