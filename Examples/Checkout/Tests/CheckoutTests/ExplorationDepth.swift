import Foundation
import OperationsTesting

/// How deep the checkout's other explorations go: every schedule of one fault and random ones
/// of up to two by default, every schedule of two with `OPCTL_STRESS=1` — each takes minutes in
/// a debug build on two cores. The checkout's own flow is always explored to two faults.
enum ExplorationDepth {
    static var isFull: Bool { ProcessInfo.processInfo.environment["OPCTL_STRESS"] == "1" }

    static func explorer<Input, Output>(
        flow: @escaping @Sendable (FaultWorld) -> ExploredFlow<Input, Output>
    ) -> FaultExplorer<Input, Output> {
        isFull
            ? FaultExplorer(maxFaults: 2, flow: flow)
            : FaultExplorer(maxFaults: 1, randomSchedules: 100, seed: 1, flow: flow)
    }
}
