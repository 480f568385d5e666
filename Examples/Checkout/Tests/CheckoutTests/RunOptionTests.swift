import Foundation
import OperationsRunner
import Testing

/// `checkout run`'s own options refuse what they cannot use, before anything is journaled.
@Suite struct RunOptionTests {
    let stateDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(UUID())")

    @Test(arguments: ["--reserve-failures", "--confirm-failures"])
    func aCountThatIsNotOneIsAUsageErrorBeforeAnyRun(option: String) throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        for bad in ["abc", "-1", "2.5"] {
            let run = checkout("run", "checkout", option, bad)
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains("\(option) takes a whole number of 0 or more, not '\(bad)'"), "\(run)")
        }
        let listed = checkout("runs")
        #expect(listed.stdout.isEmpty && listed.stderr.contains("No runs yet"), "nothing was journaled: \(listed)")
    }

    @Test(arguments: ["--cart", "--card", "--coupon", "--decline"])
    func anEmptyValueIsAUsageErrorBeforeAnyRun(option: String) throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        for empty in ["", "  "] {
            let run = checkout("run", "checkout", "\(option)=\(empty)")
            #expect(run.status == 2, "\(run)")
            #expect(run.stderr.contains("\(option) needs a value that is not empty"), "\(run)")
        }
        let listed = checkout("runs")
        #expect(listed.stdout.isEmpty && listed.stderr.contains("No runs yet"), "nothing was journaled: \(listed)")
    }

    /// A cart or coupon the store does not know is the request's mistake: a rerun would replay
    /// it, so none is offered, and the hint says what helps. A declined card is no such case.
    @Test func aRequestTheStoreDoesNotKnowOffersARunWithAnotherValueNotARerun() throws {
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let coupon = checkout("run", "checkout", "--coupon", "NOPE")
        #expect(coupon.status == 1, "\(coupon)")
        #expect(coupon.stderr.contains("checkout: ApplyCouponOp failed: no coupon 'NOPE'\n"), "\(coupon)")
        #expect(coupon.stderr.contains("run 'checkout run' with another --coupon, or none."), "\(coupon)")
        #expect(!coupon.stderr.contains("to rerun"), "\(coupon)")

        let cart = checkout("run", "checkout", "--cart", "nope")
        #expect(cart.status == 1, "\(cart)")
        #expect(cart.stderr.contains("with --cart set to one the store has."), "\(cart)")
        #expect(!cart.stderr.contains("to rerun"), "\(cart)")

        let busy = checkout("run", "checkout", "--confirm-failures", "9")
        #expect(busy.status == 1, "\(busy)")
        #expect(busy.stderr.contains("to rerun: checkout rerun "), "a failure a rerun can get past: \(busy)")
    }

    /// Runs `checkout ARGUMENTS --state-dir DIR` in this process.
    private func checkout(_ arguments: String...) -> CapturedRun {
        InProcessCheckout.run(arguments + ["--state-dir", stateDirectory.path])
    }
}
