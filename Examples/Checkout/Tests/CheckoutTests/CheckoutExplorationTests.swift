import Checkout
import Operations
import OperationsTesting
import Testing

@testable import checkout

/// "Never twice" for the checkout, in one test: the explorer runs the scenario under every
/// schedule of up to two faults (lost answers, outages, full disks, kills, Ctrl-C) over a store
/// whose line fails as the schedule says (`WorldLink` in Sources/checkout/CheckoutExploration.swift,
/// the whole adapter a team writes), and finds no reservation, charge or confirmation made twice.
///
/// Serialized: each exploration keeps a core busy for a minute or more, and run side by side
/// they starved the timing-bound tests of the other suites past their timeouts.
@Suite(.serialized) struct CheckoutExplorationTests {
    @Test func theCheckoutNeverActsTwiceUnderAnyScheduleOfTwoFaults() {
        let report = FaultExplorer(maxFaults: 2) { world in
            ExploredFlow(
                scenario: CheckoutFactory(store: Store(link: WorldLink(world: world))).checkoutScenario,
                input: CheckoutRequest(cartID: Store.sampleCart.id, card: "tok_visa", coupon: "SAVE5"))
        }.explore()
        #expect(report.schedules > 1_000, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func aDeclinedCheckoutReleasesItsReservationOnceUnderAnyScheduleOfTwoFaults() {
        let report = FaultExplorer(maxFaults: 2, flow: CheckoutProgram.declinedFlow).explore()
        #expect(report.schedules > 100, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }

    @Test func aSettlingCheckoutNeverActsTwiceUnderAnyScheduleOfTwoFaults() {
        let report = FaultExplorer(maxFaults: 2, flow: CheckoutProgram.settlementFlow).explore()
        #expect(report.schedules > 1_000, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }
}
