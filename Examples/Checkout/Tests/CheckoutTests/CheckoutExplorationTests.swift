import Checkout
import Operations
import OperationsTesting
import Testing

@testable import checkout

/// "Never twice" for the checkout, in one test: the explorer runs the scenario under every
/// schedule of up to two faults (lost answers, outages, full disks, kills, Ctrl-C) over a store
/// whose line fails as the schedule says (`WorldLink` in Sources/checkout/CheckoutExploration.swift,
/// the whole adapter a team writes), and finds no reservation, charge or confirmation made twice.
struct CheckoutExplorationTests {
    // Each exploration runs on a thread of its own: a long one on the test pool would starve
    // the async tests beside it.
    @Test func theCheckoutNeverActsTwiceUnderAnyScheduleOfTwoFaults() async {
        let explorer = FaultExplorer(maxFaults: 2) { world in
            ExploredFlow(
                scenario: CheckoutFactory(store: Store(link: WorldLink(world: world))).checkoutScenario,
                input: CheckoutRequest(cartID: Store.sampleCart.id, card: "tok_visa", coupon: "SAVE5"))
        }
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 1_000, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func aDeclinedCheckoutReleasesItsReservationOnceWhateverTheFaults() async {
        let explorer = FaultExplorer(depth: .suite, flow: CheckoutProgram.declinedFlow)
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 100, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func aSettlingCheckoutNeverActsTwiceWhateverTheFaults() async {
        let explorer = FaultExplorer(depth: .suite, flow: CheckoutProgram.settlementFlow)
        let report = await OwnThread.run { explorer.explore() }
        #expect(report.schedules > 100, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }
}
