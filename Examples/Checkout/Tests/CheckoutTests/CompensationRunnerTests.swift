import Foundation
import OperationsRunner
import Testing

/// What a person sees at the command line when a checkout is undone: the release in the
/// progress, the run's end with what was undone and no rerun offered, and `show` listing the
/// release beside the reservation it undid.
@Suite struct CompensationRunnerTests {
    let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID())")

    @Test func aDeclinedCheckoutSaysWhatItUndidAndOffersNoRerun() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let run = checkout("run", "checkout", "--decline", "tok_visa")
        #expect(run.status == 1, "\(run)")
        #expect(run.stderr.contains("PayOp: failed for good — undoing the steps before it"), "\(run)")
        #expect(run.stderr.contains("  undo ReleaseStockOp: attempt 1 succeeded"), "\(run)")
        #expect(
            run.stderr.contains("checkout: PayOp failed: card tok_visa declined\nUndone: ReserveStockOp.\n"), "\(run)")
        #expect(!run.stderr.contains("to rerun"), "an undone run is over: \(run)")

        let id = try #require(run.stderr.split(separator: "\n").first { $0.hasPrefix("run id: ") }?.dropFirst(8))
        let shown = checkout("show", String(id))
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.stdout.contains("  ReleaseStockOp (undoes ReserveStockOp): succeeded"), "\(shown)")
        #expect(shown.stdout.contains("Undone: ReserveStockOp. Nothing is left to rerun."), "\(shown)")
        #expect(!shown.stdout.contains("To resume"), "\(shown)")

        let again = checkout("rerun", String(id))
        #expect(again.status == 1, "\(again)")
        #expect(
            again.stdout.contains(
                "Run \(id) failed for good at PayOp and was undone (ReserveStockOp). Nothing is left to rerun."),
            "an undone run stays undone: \(again)")
        #expect(!again.stderr.contains("PayOp:"), "nothing is launched or replayed: \(again)")
        let journal = try String(
            contentsOf: stateDirectory.appendingPathComponent("runs/\(id).jsonl"), encoding: .utf8)
        #expect(!journal.contains(#""event":"resumed""#), "a refused rerun writes nothing: \(again)")
    }

    @Test func theDeclinedFlowIsExploredFromTheCommandLine() {
        let listed = InProcessCheckout.run(["explore", "--help"])
        #expect((listed.stdout + listed.stderr).contains("<checkout|declined>"), "\(listed)")
    }

    /// Runs `checkout ARGUMENTS --state-dir DIR` in this process.
    private func checkout(_ arguments: String...) -> CapturedRun {
        InProcessCheckout.run(arguments + ["--state-dir", stateDirectory.path])
    }
}
