import Foundation
import OperationsRunner
import Testing

/// The `checkout` runner draws its own recorded runs with the runner's `diagram --run`: the
/// runner saves every program's trace beside the run's journal, so nothing here is opctl's.
@Suite struct RunnerDiagramTests {
    let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID())")

    @Test func aRecordedRunIsDrawnStepByStep() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let id = try recordedRun()

        let drawn = checkout("diagram", "--run", id, "--width", "100")
        #expect(drawn.status == 0, "\(drawn)")
        for step in ["CheckoutScenario", "LoadCartOp", "ApplyCouponOp", "ReserveStockOp", "PayOp", "ConfirmOrderOp"] {
            #expect(drawn.stdout.contains(step), "\(step) missing:\n\(drawn)")
        }
        #expect(drawn.stdout.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(drawn)")

        let mermaid = checkout("diagram", "--run", id, "--format", "mermaid")
        #expect(mermaid.status == 0, "\(mermaid)")
        #expect(mermaid.stdout.hasPrefix("sequenceDiagram"), "\(mermaid)")
    }

    @Test func oneStepIsDrawnAlone() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let id = try recordedRun()

        let step = checkout("diagram", "--run", id, "--step", "PayOp", "--depth", "3", "--format", "ascii")
        #expect(step.status == 0, "\(step)")
        #expect(step.stdout.contains("PayOp") && !step.stdout.contains("LoadCartOp"), "\(step)")

        let unknown = checkout("diagram", "--run", id, "--step", "Nope")
        #expect(unknown.status == 2, "\(unknown)")
        #expect(
            unknown.stderr.contains(
                "the run has no step 'Nope' (its steps: LoadCartOp, ApplyCouponOp, PriceOrderOp, CheckStockOp, ReserveStockOp, PayOp, SettlePaymentOp, ConfirmOrderOp)"
            ), "\(unknown)")
        #expect(unknown.stderr.contains("See 'checkout diagram --help'."), "\(unknown)")
    }

    @Test func diagramIsListedAndNeedsARun() {
        #expect(InProcessCheckout.run(["--help"]).stdout.contains("  diagram "))
        let missing = checkout("diagram")
        #expect(missing.status == 2, "\(missing)")
        #expect(missing.stderr.contains("missing the run to draw: --run RUN_ID (see 'checkout runs')"), "\(missing)")
        let unknown = checkout("diagram", "--run", "20260101-000000-000-00000000")
        #expect(unknown.status != 0, "\(unknown)")
    }

    // MARK: - Helpers

    /// Runs a checkout with a coupon and returns its run id.
    private func recordedRun() throws -> String {
        let run = checkout("run", "checkout", "--coupon", "SAVE5", "--json")
        #expect(run.status == 0, "\(run)")
        let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        return try #require(object?["id"] as? String, "\(run)")
    }

    /// Runs `checkout ARGUMENTS --state-dir DIR` in this process.
    private func checkout(_ arguments: String...) -> CapturedRun {
        InProcessCheckout.run(arguments + ["--state-dir", stateDirectory.path])
    }
}
