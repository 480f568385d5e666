import Foundation
import Operations
import OperationsTesting
import Testing

/// A suite's exploration depth: quick unless its stress variable asks for every schedule of two.
struct ExplorationDepthTests {
    @Test func theStressVariableAsksForTheFullDepth() {
        let variable = "EXPLORATION_DEPTH_TESTS_\(UUID().uuidString.prefix(8))"
        #expect(ExplorationDepth.full(when: variable) == .quick())
        setenv(variable, "1", 1)
        defer { unsetenv(variable) }
        #expect(ExplorationDepth.full(when: variable) == .full)
        setenv(variable, "yes", 1)
        #expect(ExplorationDepth.full(when: variable) == .quick(), "only 1 asks for it")
    }

    @Test func aDepthSetsTheFaultsAndTheRandomSchedules() {
        let flow: @Sendable (FaultWorld) -> ExploredFlow<Int, Int> = { _ in
            ExploredFlow(scenario: Scenario<Int, Int>("Nothing") { $0.map { $0 } }, input: 1)
        }
        let quick = FaultExplorer(depth: .quick(randomSchedules: 7, seed: 3), flow: flow)
        #expect((quick.maxFaults, quick.randomSchedules, quick.seed) == (1, 7, 3))
        let full = FaultExplorer(depth: .full, flow: flow)
        #expect((full.maxFaults, full.randomSchedules) == (2, 0))
    }
}
