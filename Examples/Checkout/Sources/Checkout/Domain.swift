public import Operations

/// What a customer asks for: check out this cart, paying with this card, maybe with a coupon.
public struct CheckoutRequest: Codable, Sendable, Hashable {
    /// The cart to check out.
    public var cartID: String
    /// The payment token of the card to charge (never a card number).
    public var card: String
    /// A coupon code, when the customer typed one.
    public var coupon: String?

    /// Creates a request.
    public init(cartID: String, card: String, coupon: String? = nil) {
        self.cartID = cartID
        self.card = card
        self.coupon = coupon
    }
}

/// One line of a cart.
public struct CartLine: Codable, Sendable, Hashable {
    /// The product's stock-keeping unit.
    public var sku: String
    /// How many.
    public var quantity: Int
    /// The price of one, in cents.
    public var unitPrice: Int

    /// Creates a line.
    public init(sku: String, quantity: Int, unitPrice: Int) {
        self.sku = sku
        self.quantity = quantity
        self.unitPrice = unitPrice
    }
}

/// A cart as the store keeps it.
public struct Cart: Codable, Sendable, Hashable {
    /// The cart's id.
    public var id: String
    /// Its lines.
    public var lines: [CartLine]

    /// Creates a cart.
    public init(id: String, lines: [CartLine]) {
        self.id = id
        self.lines = lines
    }

    /// The sum of its lines, in cents.
    public var subtotal: Int { lines.reduce(0) { $0 + $1.quantity * $1.unitPrice } }
}

/// The order being checked out: the cart with the card and the coupon's discount.
public struct Order: Codable, Sendable, Hashable {
    /// The cart.
    public var cart: Cart
    /// The payment token of the card to charge.
    public var card: String
    /// The coupon code given, if any.
    public var coupon: String?
    /// The discount the coupon gives, in cents; 0 until it is applied.
    public var discount: Int
    /// What the store priced the order at, once it has (``PriceOrderOp``).
    public var price: Price?

    /// The order of `cart` as `request` asks for it.
    public init(request: CheckoutRequest, cart: Cart) {
        self.cart = cart
        self.card = request.card
        self.coupon = request.coupon
        self.discount = 0
    }

    /// Whether a coupon was given.
    public var hasCoupon: Bool { coupon != nil }
    /// What the customer pays, in cents: the store's price once it has priced the order.
    public var total: Int { price?.total ?? max(0, cart.subtotal - discount) }

    /// The same order at the store's price.
    public func priced(_ price: Price) -> Order {
        var copy = self
        copy.price = price
        return copy
    }
}

/// What the stock check found: every product of the order in stock, counted by line. The
/// check hands back what it learned, not the order it was given: the parallel step keeps the
/// order itself (`parallel(_:_:_:combine:)`).
public struct StockCheck: Codable, Sendable, Hashable {
    /// How many lines of the cart were checked, all in stock.
    public let linesInStock: Int

    /// Creates a result of the check.
    public init(linesInStock: Int) { self.linesInStock = linesInStock }
}

/// Stock held for an order until it is confirmed.
public struct Reservation: Codable, Sendable, Hashable {
    /// The reservation's id at the store.
    public var id: String
}

/// The order with its stock reserved.
public struct ReservedOrder: Codable, Sendable, Hashable {
    /// The order.
    public var order: Order
    /// Its reservation.
    public var reservation: Reservation

    /// What the payment step is launched with.
    public var payment: PaymentRequest {
        PaymentRequest(amount: order.total, card: order.card, reference: reservation.id)
    }
}

/// A charge to make: the payment step's input, which a failure handler relaunches with another card.
public struct PaymentRequest: Codable, Sendable, Hashable {
    /// The amount, in cents.
    public var amount: Int
    /// The payment token of the card to charge.
    public var card: String
    /// What the charge is for (the reservation).
    public var reference: String

    /// The same charge on another card.
    public func with(card: String) -> PaymentRequest {
        var copy = self
        copy.card = card
        return copy
    }
}

/// A successful charge.
public struct Receipt: Codable, Sendable, Hashable {
    /// The charge's id at the store.
    public var chargeID: String
    /// The amount charged, in cents.
    public var amount: Int
    /// The card charged.
    public var card: String
}

/// The reserved order, paid.
public struct PaidOrder: Codable, Sendable, Hashable {
    /// The reserved order.
    public var reserved: ReservedOrder
    /// The charge's receipt.
    public var receipt: Receipt
}

/// The end of a checkout.
public struct Confirmation: Codable, Sendable, Hashable {
    /// The order number the customer is shown.
    public var orderNumber: String
    /// The amount paid, in cents.
    public var amount: Int
    /// The charge's id.
    public var chargeID: String

    /// Creates a confirmation.
    public init(orderNumber: String, amount: Int, chargeID: String) {
        self.orderNumber = orderNumber
        self.amount = amount
        self.chargeID = chargeID
    }
}

/// What the store answers when it cannot do what an operation asked.
public enum StoreError: Error, Sendable, Hashable, RetryableError, CustomStringConvertible {
    /// No cart with this id.
    case unknownCart(String)
    /// No coupon with this code.
    case unknownCoupon(String)
    /// The stock service is busy; trying again later may work.
    case stockUnavailable
    /// The card was declined; another card may work.
    case cardDeclined(card: String)
    /// The order service could not confirm the order.
    case confirmationFailed
    /// A product of the cart is sold out.
    case soldOut(sku: String)
    /// The request never reached the store.
    case unreachable
    /// The store's answer was lost on the way back: it may have acted.
    case answerLost

    /// A busy stock or order service and a failed line are worth another attempt of the same request
    /// (with the same key, so a lost answer is handed back rather than acted on again).
    public var isTransient: Bool {
        [.stockUnavailable, .confirmationFailed, .unreachable, .answerLost].contains(self)
    }

    /// A sentence for people.
    public var description: String {
        switch self {
        case .unknownCart(let id): "no cart '\(id)'"
        case .unknownCoupon(let code): "no coupon '\(code)'"
        case .stockUnavailable: "the stock service is unavailable"
        case .cardDeclined(let card): "card \(card) declined"
        case .confirmationFailed: "the order could not be confirmed"
        case .soldOut(let sku): "\(sku) is sold out"
        case .unreachable: "the store cannot be reached"
        case .answerLost: "the store's answer was lost"
        }
    }
}

extension StoreError: OutcomeUncertainError {
    /// A lost answer may follow an act: the rerun that repeats it sends the same key.
    public var outcomeIsUncertain: Bool { self == .answerLost }
}
