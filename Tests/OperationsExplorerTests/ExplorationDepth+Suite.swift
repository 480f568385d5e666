import OperationsTesting

extension ExplorationDepth {
    /// The depth of this suite's longer explorations: every schedule of two faults with
    /// `OPCTL_STRESS=1`. CI explores every schedule of two for the sign-in flows through the
    /// release `opctl explore`.
    static let suite = ExplorationDepth.full(when: "OPCTL_STRESS")
}
