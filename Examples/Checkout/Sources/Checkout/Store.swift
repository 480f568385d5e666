public import Operations
import Synchronization

/// A fake store kept in memory: carts, coupons, stock, payments and orders, with faults a test
/// or the command line asks for. Every call answers at once on the caller's thread.
///
/// Requests that make the store act (reserve, charge, confirm) carry the attempt's
/// ``IdempotencyKey``: a repeated key gets the first answer back and acts no second time, as a
/// real payment service does.
public final class Store: Sendable {
    /// The faults the store injects.
    public struct Faults: Sendable, Hashable {
        /// How many reservations fail with ``StoreError/stockUnavailable`` before one succeeds.
        public var reserveFailures: Int
        /// Cards whose charges are declined.
        public var declinedCards: Set<String>
        /// How many confirmations fail with ``StoreError/confirmationFailed`` before one succeeds.
        public var confirmFailures: Int
        /// Products the stock check finds sold out (``StoreError/soldOut(sku:)``).
        public var soldOut: Set<String>
        /// How many times a charge's settlement is asked about and answers "pending" before it
        /// answers "settled" (``Store/settlement(of:)``).
        public var pendingSettlementPolls: Int

        /// Creates faults; none by default.
        public init(
            reserveFailures: Int = 0, declinedCards: Set<String> = [], confirmFailures: Int = 0,
            soldOut: Set<String> = [],
            pendingSettlementPolls: Int = 0
        ) {
            self.reserveFailures = reserveFailures
            self.declinedCards = declinedCards
            self.confirmFailures = confirmFailures
            self.soldOut = soldOut
            self.pendingSettlementPolls = pendingSettlementPolls
        }
    }

    private struct State {
        var carts: [String: Cart]
        var coupons: [String: Int]
        var faults: Faults
        var answers: [String: any Sendable] = [:]
        var chargeRequests: [IdempotencyKey?] = []
        var charges: [Receipt] = []
        var reservations = 0
        /// Reservations made and neither released nor confirmed into an order.
        var held: Set<String> = []
        var releases = 0
        var confirmations: [Confirmation] = []
        /// How many times each charge's settlement was asked about.
        var settlementPolls: [String: Int] = [:]
    }

    private let state: Mutex<State>
    /// What requests meet on the way, for tests; `nil` delivers every one.
    private let link: (any StoreLink)?

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - carts: The carts it knows.
    ///   - coupons: Coupon codes and their discounts in cents.
    ///   - faults: The faults it injects.
    ///   - link: What requests that make it act meet on the way; `nil` delivers every one.
    public init(
        carts: [Cart] = [Store.sampleCart], coupons: [String: Int] = ["SAVE5": 500], faults: Faults = Faults(),
        link: (any StoreLink)? = nil
    ) {
        self.link = link
        state = Mutex(
            State(carts: Dictionary(uniqueKeysWithValues: carts.map { ($0.id, $0) }), coupons: coupons, faults: faults))
    }

    /// The cart the command line checks out when none other is set up.
    public static let sampleCart = Cart(
        id: "cart-1",
        lines: [
            CartLine(sku: "TEA-01", quantity: 2, unitPrice: 1250), CartLine(sku: "MUG-02", quantity: 1, unitPrice: 900),
        ])

    /// Every charge request received, with its key, repeats included.
    public var chargeRequests: [IdempotencyKey?] { state.withLock { $0.chargeRequests } }
    /// The charges actually made.
    public var charges: [Receipt] { state.withLock { $0.charges } }
    /// The orders confirmed.
    public var confirmations: [Confirmation] { state.withLock { $0.confirmations } }
    /// The reservations that hold stock: made, and neither released nor confirmed into an order.
    public var heldReservations: Set<String> { state.withLock { $0.held } }
    /// How many reservations were released.
    public var releases: Int { state.withLock { $0.releases } }

    /// The cart with this id.
    public func cart(_ id: String) throws -> Cart {
        guard let cart = state.withLock({ $0.carts[id] }) else { throw StoreError.unknownCart(id) }
        return cart
    }

    /// The discount of a coupon, in cents.
    public func discount(coupon: String) throws -> Int {
        guard let discount = state.withLock({ $0.coupons[coupon] }) else { throw StoreError.unknownCoupon(coupon) }
        return discount
    }

    /// Reserves the cart's stock.
    public func reserve(_ cart: Cart, key: IdempotencyKey?) throws -> Reservation {
        try answer("reserve", key) { state in
            if state.faults.reserveFailures > 0 {
                state.faults.reserveFailures -= 1
                throw StoreError.stockUnavailable
            }
            state.reservations += 1
            let reservation = Reservation(id: "res-\(state.reservations)")
            state.held.insert(reservation.id)
            return reservation
        }
    }

    /// Releases a reservation's stock: how a checkout that cannot be paid undoes its reservation.
    /// Releasing one already released (or never made) changes nothing.
    public func release(_ reservation: Reservation, key: IdempotencyKey?) throws {
        try answer("release", key) { state in
            if state.held.remove(reservation.id) != nil { state.releases += 1 }
        }
    }

    /// Charges a card.
    public func charge(_ payment: PaymentRequest, key: IdempotencyKey?) throws -> Receipt {
        state.withLock { $0.chargeRequests.append(key) }
        return try answer("charge", key) { state in
            if state.faults.declinedCards.contains(payment.card) { throw StoreError.cardDeclined(card: payment.card) }
            let receipt = Receipt(chargeID: "ch-\(state.charges.count + 1)", amount: payment.amount, card: payment.card)
            state.charges.append(receipt)
            return receipt
        }
    }

    /// Confirms a paid order, releasing its reservation into an order.
    public func confirm(_ order: PaidOrder, key: IdempotencyKey?) throws -> Confirmation {
        try answer("confirm", key) { state in
            if state.faults.confirmFailures > 0 {
                state.faults.confirmFailures -= 1
                throw StoreError.confirmationFailed
            }
            let confirmation = Confirmation(
                orderNumber: "order-\(state.confirmations.count + 1)", amount: order.receipt.amount,
                chargeID: order.receipt.chargeID)
            state.confirmations.append(confirmation)
            state.held.remove(order.reserved.reservation.id)
            return confirmation
        }
    }

    /// Checks that every product of the cart is in stock; reserves nothing.
    public func checkStock(_ cart: Cart) throws {
        try read("stock") { state in
            if let line = cart.lines.first(where: { state.faults.soldOut.contains($0.sku) }) {
                throw StoreError.soldOut(sku: line.sku)
            }
        }
    }

    /// The price of an order, its coupon's discount applied; changes nothing. Worked out beside
    /// the store's catalogue, so no request goes over the link.
    public func price(_ order: Order) -> Price {
        Price(subtotal: order.cart.subtotal, discount: order.discount)
    }

    /// What `look` reads, through the link's fault for the request: a read acts on nothing, so a
    /// lost answer only costs the caller the answer.
    private func read<T: Sendable>(_ kind: String, _ look: (State) throws -> T) throws -> T {
        let fault = link?.fault(for: kind)
        if fault == .unreachable { throw StoreError.unreachable }
        let value = try state.withLock { try look($0) }
        if fault == .answerLost { throw StoreError.answerLost }
        return value
    }

    /// Whether a charge has settled: a read, answered "pending" for the first
    /// ``Faults/pendingSettlementPolls`` questions about it. It meets the line's faults like any
    /// request but acts on nothing, so asking again is always safe.
    public func settlement(of receipt: Receipt) throws -> Bool {
        if link?.fault(for: "settlement") != nil { throw StoreError.unreachable }
        return state.withLock { state in
            let polls = state.settlementPolls[receipt.chargeID, default: 0] + 1
            state.settlementPolls[receipt.chargeID] = polls
            return polls > state.faults.pendingSettlementPolls
        }
    }

    /// The first successful answer to `key` for this kind of request, or `act`'s (kept under the
    /// key), through the link's fault for the request.
    private func answer<T: Sendable>(
        _ kind: String, _ key: IdempotencyKey?, _ act: (inout State) throws -> T
    ) throws -> T {
        let fault = link?.fault(for: kind)
        if fault == .unreachable { throw StoreError.unreachable }
        let value = try state.withLock { (state: inout State) throws -> T in
            let slot = key.map { "\(kind)/\($0.rawValue)" }
            if let slot, let first = state.answers[slot] as? T { return first }
            let value = try act(&state)
            link?.acted(kind)
            if let slot { state.answers[slot] = value }
            return value
        }
        if fault == .answerLost { throw StoreError.answerLost }
        return value
    }
}
