import Checkout
import Foundation
import Operations
import OperationsTesting
import Synchronization
import Testing

/// A payment screen that answers from a script and remembers what it was asked.
final class ScriptedPaymentScreen: PaymentScreen {
    private let answers: Mutex<[String?]>
    private let asked = Mutex<[String]>([])

    init(answers: [String?]) { self.answers = Mutex(answers) }

    /// The reasons it was shown, in order.
    var reasons: [String] { asked.withLock { $0 } }

    func askForAnotherCard(_ reason: String, _ prompt: ScreenPrompt<String?>) {
        asked.withLock { $0.append(reason) }
        prompt.answer(answers.withLock { $0.isEmpty ? nil : $0.removeFirst() })
    }
}

@Suite struct CheckoutScenarioTests {
    let request = CheckoutRequest(cartID: "cart-1", card: "tok_visa")

    @Test func happyPathChargesOnceAndConfirms() async throws {
        let store = Store()
        let confirmation = try await CheckoutFactory(store: store).checkoutScenario.launchAndAwait(OpContext(request))
        #expect(confirmation == Confirmation(orderNumber: "order-1", amount: 3400, chargeID: "ch-1"))
        #expect(store.charges.count == 1)
        #expect(store.chargeRequests.allSatisfy { $0 != nil }, "a side-effect step is launched with a key")
    }

    @Test func transientReserveFailuresAreRetriedAfterTheBackoff() async throws {
        let store = Store(faults: Store.Faults(reserveFailures: 2))
        let scheduler = TestScheduler()
        let environment = OpEnvironment(scheduler: scheduler, random: { 0 })
        let scenario = CheckoutFactory(store: store).checkoutScenario
        async let launched = scenario.launchAndAwait(OpContext(request, environment: environment))
        // The backoff doubles from 200 ms; no jitter. Each retry fails until the third attempt.
        for wait in [Duration.milliseconds(200), .milliseconds(400)] {
            try await scheduler.waitForPendingWork()
            #expect(store.confirmations.isEmpty)
            scheduler.advance(by: wait)
        }
        let confirmation = try await launched
        #expect(confirmation.orderNumber == "order-1")
        #expect(scheduler.requestedDelays == [.milliseconds(200), .milliseconds(400)])
    }

    @Test func aDeclinedCardIsReplacedAndThePaymentRelaunched() async throws {
        let store = Store(faults: Store.Faults(declinedCards: ["tok_declined"]))
        let screen = ScriptedPaymentScreen(answers: ["tok_mastercard"])
        let scenario = CheckoutFactory(store: store, paymentScreen: screen).checkoutScenario
        let declined = CheckoutRequest(cartID: "cart-1", card: "tok_declined")
        let confirmation = try await scenario.launchAndAwait(OpContext(declined))
        #expect(screen.reasons == ["card tok_declined declined"])
        #expect(store.charges.map(\.card) == ["tok_mastercard"])
        #expect(store.chargeRequests.count == 2)
        #expect(confirmation.chargeID == "ch-1")
    }

    @Test func aDeclinedCardWithNoOtherEndsTheCheckout() async throws {
        let store = Store(faults: Store.Faults(declinedCards: ["tok_visa"]))
        let scenario = CheckoutFactory(store: store).checkoutScenario
        let error = await #expect(throws: StepFailure.self) {
            try await scenario.launchAndAwait(OpContext(request))
        }
        #expect(error?.rootCause as? StoreError == .cardDeclined(card: "tok_visa"))
        #expect(store.confirmations.isEmpty)
        #expect(store.heldReservations.isEmpty, "the declined checkout releases its reservation")
        #expect(store.releases == 1)
    }

    @Test func aReleaseThatFailsIsReportedAsLeftUndone() async throws {
        let store = Store(faults: Store.Faults(declinedCards: ["tok_visa"]), link: FailingRelease())
        let scenario = CheckoutFactory(store: store).checkoutScenario
        let error = await #expect(throws: CompensationFailure.self) {
            try await scenario.launchAndAwait(OpContext(request))
        }
        #expect(error?.leftUndone.map(\.step) == ["ReserveStockOp"])
        #expect(
            error?.description
                == "PayOp failed: card tok_visa declined; "
                + "left undone: ReserveStockOp (ReleaseStockOp failed: the store cannot be reached)")
        #expect(store.heldReservations == ["res-1"])
    }

    @Test func aPaymentThatMayPassLaterReleasesNothing() async throws {
        let store = Store(link: UnreachableCharge())
        let scenario = CheckoutFactory(store: store).checkoutScenario
        let error = await #expect(throws: StepFailure.self) {
            try await scenario.launchAndAwait(OpContext(request))
        }
        #expect(error?.rootCause as? StoreError == .unreachable)
        #expect(store.heldReservations == ["res-1"], "a rerun pays and confirms with the reservation it holds")
    }

    @Test(arguments: [(nil, 3400), ("SAVE5", 2900)] as [(String?, Int)])
    func theCouponStepRunsOnlyWithACoupon(coupon: String?, amount: Int) async throws {
        let store = Store()
        let recorder = ScenarioRecorder()
        let context = OpContext(
            CheckoutRequest(cartID: "cart-1", card: "tok_visa", coupon: coupon),
            environment: OpEnvironment(observer: recorder))
        let confirmation = try await CheckoutFactory(store: store).checkoutScenario.launchAndAwait(context)
        #expect(confirmation.amount == amount)
        let couponLines = recorder.stepLines.filter { $0.contains("ApplyCouponOp") }
        #expect(couponLines.contains { $0.contains("skipped") } == (coupon == nil), "\(couponLines)")
    }
}

/// A store line on which every release fails to arrive.
struct FailingRelease: StoreLink {
    func fault(for request: String) -> StoreLinkFault? { request == "release" ? .unreachable : nil }
    func acted(_ request: String) {}
}

/// A store line on which every charge fails to arrive.
struct UnreachableCharge: StoreLink {
    func fault(for request: String) -> StoreLinkFault? { request == "charge" ? .unreachable : nil }
    func acted(_ request: String) {}
}
