import Foundation
import OperationsTesting

/// How deep the longer explorations in these tests go: every schedule of one fault and random
/// ones of up to two by default — every schedule of two takes minutes in a debug build on two
/// cores, and starves the tests beside it — and every schedule of two with `OPCTL_STRESS=1`.
/// CI explores every schedule of two for the sign-in flows through the release `opctl explore`.
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
