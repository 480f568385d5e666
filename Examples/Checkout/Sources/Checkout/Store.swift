import Foundation
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

    /// What the store remembers of the requests it acted on: in memory, or kept by a
    /// ``StoreStateKeeper`` so that a store in a later process (a rerun) meets what an earlier
    /// one did. Carts, coupons and faults are each store's own, given when it is made.
    struct Records: Codable, Equatable {
        /// The first answer to each request, by `kind/key`.
        var answers: [String: KeptAnswer] = [:]
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

    private let carts: [String: Cart]
    private let coupons: [String: Int]
    /// The faults left to inject: this store's own, never kept.
    private let faults: Mutex<Faults>
    /// The records when no keeper keeps them; also the lock every transaction takes first.
    private let memory = Mutex(Records())
    /// What requests meet on the way, for tests; `nil` delivers every one.
    private let link: (any StoreLink)?
    /// Where the records are kept across processes; `nil` keeps them in memory.
    private let keeper: (any StoreStateKeeper)?

    /// Creates a store.
    ///
    /// - Parameters:
    ///   - carts: The carts it knows.
    ///   - coupons: Coupon codes and their discounts in cents.
    ///   - faults: The faults it injects.
    ///   - link: What requests that make it act meet on the way; `nil` delivers every one.
    ///   - keeper: Where what the store did is kept, so that a store made later over the same
    ///     keeper (another process) meets it; `nil` keeps it in this store's memory.
    public init(
        carts: [Cart] = [Store.sampleCart], coupons: [String: Int] = ["SAVE5": 500], faults: Faults = Faults(),
        link: (any StoreLink)? = nil, keeper: (any StoreStateKeeper)? = nil
    ) {
        self.link = link
        self.keeper = keeper
        self.carts = Dictionary(uniqueKeysWithValues: carts.map { ($0.id, $0) })
        self.coupons = coupons
        self.faults = Mutex(faults)
    }

    /// The cart the command line checks out when none other is set up.
    public static let sampleCart = Cart(
        id: "cart-1",
        lines: [
            CartLine(sku: "TEA-01", quantity: 2, unitPrice: 1250), CartLine(sku: "MUG-02", quantity: 1, unitPrice: 900),
        ])

    /// Every charge request received, with its key, repeats included.
    public var chargeRequests: [IdempotencyKey?] { (try? records { $0.chargeRequests }) ?? [] }
    /// The charges actually made.
    public var charges: [Receipt] { (try? records { $0.charges }) ?? [] }
    /// The orders confirmed.
    public var confirmations: [Confirmation] { (try? records { $0.confirmations }) ?? [] }
    /// The reservations that hold stock: made, and neither released nor confirmed into an order.
    public var heldReservations: Set<String> { (try? records { $0.held }) ?? [] }
    /// How many reservations were released.
    public var releases: Int { (try? records { $0.releases }) ?? 0 }
    /// How many reservations were made.
    public var reservationsMade: Int { (try? records { $0.reservations }) ?? 0 }

    /// The cart with this id.
    public func cart(_ id: String) throws -> Cart {
        guard let cart = carts[id] else { throw StoreError.unknownCart(id) }
        return cart
    }

    /// The discount of a coupon, in cents.
    public func discount(coupon: String) throws -> Int {
        guard let discount = coupons[coupon] else { throw StoreError.unknownCoupon(coupon) }
        return discount
    }

    /// Reserves the cart's stock.
    public func reserve(_ cart: Cart, key: IdempotencyKey?) throws -> Reservation {
        try answer("reserve", key) { records in
            try takeFault(.stockUnavailable) { faults in
                guard faults.reserveFailures > 0 else { return false }
                faults.reserveFailures -= 1
                return true
            }
            records.reservations += 1
            let reservation = Reservation(id: "res-\(records.reservations)")
            records.held.insert(reservation.id)
            return reservation
        }
    }

    /// Releases a reservation's stock: how a checkout that cannot be paid undoes its reservation.
    /// Releasing one already released (or never made) changes nothing.
    public func release(_ reservation: Reservation, key: IdempotencyKey?) throws {
        _ = try answer("release", key) { records in
            if records.held.remove(reservation.id) != nil { records.releases += 1 }
            return Done()
        }
    }

    /// Charges a card.
    public func charge(_ payment: PaymentRequest, key: IdempotencyKey?) throws -> Receipt {
        try records { $0.chargeRequests.append(key) }
        let declined = faults.withLock { $0.declinedCards.contains(payment.card) }
        return try answer("charge", key) { records in
            if declined { throw StoreError.cardDeclined(card: payment.card) }
            let receipt = Receipt(
                chargeID: "ch-\(records.charges.count + 1)", amount: payment.amount, card: payment.card)
            records.charges.append(receipt)
            return receipt
        }
    }

    /// Confirms a paid order, releasing its reservation into an order.
    public func confirm(_ order: PaidOrder, key: IdempotencyKey?) throws -> Confirmation {
        try answer("confirm", key) { records in
            try takeFault(.confirmationFailed) { faults in
                guard faults.confirmFailures > 0 else { return false }
                faults.confirmFailures -= 1
                return true
            }
            let confirmation = Confirmation(
                orderNumber: "order-\(records.confirmations.count + 1)", amount: order.receipt.amount,
                chargeID: order.receipt.chargeID)
            records.confirmations.append(confirmation)
            records.held.remove(order.reserved.reservation.id)
            return confirmation
        }
    }

    /// Checks that every product of the cart is in stock; reserves nothing.
    public func checkStock(_ cart: Cart) throws {
        try read("stock") { faults in
            if let line = cart.lines.first(where: { faults.soldOut.contains($0.sku) }) {
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
    private func read<T: Sendable>(_ kind: String, _ look: (Faults) throws -> T) throws -> T {
        let fault = link?.fault(for: kind)
        if fault == .unreachable { throw StoreError.unreachable }
        let value = try faults.withLock { try look($0) }
        if fault == .answerLost { throw StoreError.answerLost }
        return value
    }

    /// Whether a charge has settled: a read, answered "pending" for the first
    /// ``Faults/pendingSettlementPolls`` questions about it. It meets the line's faults like any
    /// request but acts on nothing, so asking again is always safe.
    public func settlement(of receipt: Receipt) throws -> Bool {
        if link?.fault(for: "settlement") != nil { throw StoreError.unreachable }
        let pending = faults.withLock { $0.pendingSettlementPolls }
        return try records { records in
            let polls = records.settlementPolls[receipt.chargeID, default: 0] + 1
            records.settlementPolls[receipt.chargeID] = polls
            return polls > pending
        }
    }

    /// The first successful answer to `key` for this kind of request, or `act`'s (kept under the
    /// key), through the link's fault for the request.
    private func answer<T: Sendable & Codable>(
        _ kind: String, _ key: IdempotencyKey?, _ act: (inout Records) throws -> T
    ) throws -> T {
        let fault = link?.fault(for: kind)
        if fault == .unreachable { throw StoreError.unreachable }
        let value = try records { (records: inout Records) throws -> T in
            let slot = key.map { "\(kind)/\($0.rawValue)" }
            if let slot, let first = records.answers[slot]?.value(as: T.self) { return first }
            let value = try act(&records)
            link?.acted(kind)
            if let slot { records.answers[slot] = try KeptAnswer(value) }
            return value
        }
        if fault == .answerLost { throw StoreError.answerLost }
        return value
    }

    /// Throws `error` when `take` finds one of this store's faults left to inject (and counts it).
    private func takeFault(_ error: StoreError, _ take: (inout Faults) -> Bool) throws {
        if faults.withLock({ take(&$0) }) { throw error }
    }

    /// Runs `body` on the records, as one transaction: under this store's lock, and under the
    /// keeper's across processes, reading what the keeper holds first and keeping what changed.
    /// A body that throws changes nothing; records that cannot be kept leave the request
    /// unreached (``StoreError/unreachable``): the store acted on nothing.
    private func records<T: Sendable>(_ body: (inout Records) throws -> T) throws -> T {
        try memory.withLock { memory in
            guard let keeper else { return try body(&memory) }
            var outcome: Result<T, any Error> = .failure(StoreError.unreachable)
            do {
                try keeper.withExclusiveAccess { bytes in
                    var records = bytes.flatMap { try? JSONDecoder().decode(Records.self, from: $0) } ?? Records()
                    let before = records
                    outcome = Result { try body(&records) }
                    guard case .success = outcome, records != before else { return nil }
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.sortedKeys]
                    return try? encoder.encode(records)
                }
            } catch {
                throw StoreError.unreachable
            }
            return try outcome.get()
        }
    }
}

/// A first answer the store keeps under its request's key.
enum KeptAnswer: Codable, Equatable {
    case reservation(Reservation)
    case receipt(Receipt)
    case confirmation(Confirmation)
    /// A request whose answer carries nothing (a release).
    case done

    init<T>(_ value: T) throws {
        switch value {
        case let reservation as Reservation: self = .reservation(reservation)
        case let receipt as Receipt: self = .receipt(receipt)
        case let confirmation as Confirmation: self = .confirmation(confirmation)
        case is Done: self = .done
        default: throw StoreError.unreachable
        }
    }

    func value<T>(as type: T.Type) -> T? {
        switch self {
        case .reservation(let reservation): reservation as? T
        case .receipt(let receipt): receipt as? T
        case .confirmation(let confirmation): confirmation as? T
        case .done: Done() as? T
        }
    }
}

/// The answer of a request that acts and returns nothing (a release).
struct Done: Codable, Sendable, Hashable {}
