import Checkout
import Operations
import OperationsTesting
import Testing

/// "Never twice" for the checkout, in one test: the explorer runs the scenario under every
/// schedule of up to two faults (lost answers, outages, full disks, kills, Ctrl-C) over a store
/// behind a line that fails as the schedule says, and finds no reservation, charge or
/// confirmation made twice.
struct CheckoutExplorationTests {
    struct Line: StoreLink {
        let world: FaultWorld

        func fault(for request: String) -> StoreLinkFault? {
            switch world.request(request) {
            case .failBeforeActing?, .serverError?, .tooManyRequests?: .unreachable
            case .loseAnswer?, .timeOut?: .answerLost
            default: nil
            }
        }

        func acted(_ request: String) { world.performed(request) }
    }

    @Test func theCheckoutNeverActsTwiceUnderAnyScheduleOfTwoFaults() {
        let report = FaultExplorer(maxFaults: 2) { world in
            ExploredFlow(
                scenario: CheckoutFactory(store: Store(link: Line(world: world))).checkoutScenario,
                input: CheckoutRequest(cartID: Store.sampleCart.id, card: "tok_visa", coupon: "SAVE5"))
        }.explore()
        #expect(report.schedules > 1_000, "\(report.schedules) schedules")
        #expect(report.violations.isEmpty, "\(report)")
    }
}
