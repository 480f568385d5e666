import Foundation
import Operations
import OperationsDiagrams
import OperationsTestSupport
import Testing

// GettingStarted.md's example, compiled: the block between the markers below must be the
// article's code block byte for byte (the last test checks).

// GettingStarted example begin
/// The shop's types, in a namespace of their own.
enum Shop {
    /// What the customer wants: quantities by product.
    struct Cart: Sendable, Codable, Equatable {
        var items: [String: Int]
    }

    struct PricedCart: Sendable, Codable, Equatable {
        var cart: Cart
        var total: Int
    }

    struct Reservation: Sendable, Codable, Equatable {
        var id: String
        var total: Int
    }

    /// A domain error says whether trying again can help: retry policies retry only transient
    /// errors.
    enum ShopError: Error, Equatable, RetryableError {
        case unavailable
        case outOfStock(String)

        var isTransient: Bool { self == .unavailable }
    }

    /// A key service, passed in through the initialiser: tests give a stub, the app the real one.
    protocol Inventory: Sendable {
        func prices(of products: [String], reply: @escaping @Sendable (Result<[String: Int], ShopError>) -> Void)
        func reserve(
            _ items: [String: Int], idempotencyKey: IdempotencyKey?,
            reply: @escaping @Sendable (Result<String, ShopError>) -> Void)
    }

    /// Pure: reading prices changes nothing, so the engine may launch it again freely.
    final class PriceCartOp: PureOp {
        private let inventory: any Inventory
        init(inventory: any Inventory) { self.inventory = inventory }

        func launch(_ context: OpContext<Cart>, onFinish: @escaping OnFinish<PricedCart>) {
            // Keeps the operation alive until it finishes, lets exactly one finish through, and
            // finishes with .cancelled or .timedOut when the launch is cancelled or runs late.
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            let cart = context.input
            inventory.prices(of: Array(cart.items.keys)) { result in
                completion.finish(
                    result.map { prices in
                        PricedCart(cart: cart, total: cart.items.reduce(0) { $0 + (prices[$1.key] ?? 0) * $1.value })
                    }
                    .mapError { $0 })
            }
        }
    }

    /// Side effects: reserving changes the inventory. The request carries the launch's key for
    /// it, the same in every retry and rerun of this step, so the inventory answers a repeat with
    /// its first answer instead of reserving twice.
    final class ReserveStockOp: Op {
        private let inventory: any Inventory
        init(inventory: any Inventory) { self.inventory = inventory }

        func launch(_ context: OpContext<PricedCart>, onFinish: @escaping OnFinish<Reservation>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            let total = context.input.total
            inventory.reserve(context.input.cart.items, idempotencyKey: context.idempotencyKey(for: "reserve")) {
                result in
                completion.finish(result.map { Reservation(id: $0, total: total) }.mapError { $0 })
            }
        }
    }

    /// Each step's output is the next one's input, checked by the compiler.
    static func checkout(inventory: any Inventory) -> Scenario<Cart, Reservation> {
        Scenario("Checkout") { chain in
            chain
                // A pure step: its transient failures are retried as they are.
                .then(Step { PriceCartOp(inventory: inventory) }.retrying(.transient(maxAttempts: 3)))
                // A step with side effects is retried only when the policy says so, and says so
                // here only because its request carries its idempotency key.
                .then(
                    Step { ReserveStockOp(inventory: inventory) }
                        .retrying(.transient(maxAttempts: 3, relaunchesSideEffects: true)))
        }
    }

    /// Launches the checkout with a tracer and draws what it did.
    static func drawCheckout(_ cart: Cart, inventory: any Inventory) async throws -> String {
        let tracer = InMemoryTracer()
        var context = OpContext(cart)
        context.trace = .root(tracer, caller: .caller("App"))
        _ = try await checkout(inventory: inventory).launch(context)
        return try TextDiagramRenderer(maxWidth: 100).render(tracer.trace)
    }
}
// GettingStarted example end

/// An inventory that reserves once per key, and can act and then lose its answer.
private final class StubInventory: Shop.Inventory, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [IdempotencyKey: String] = [:]
    private var pricesFailures: Int
    private var answersToLose: Int
    private(set) var keys: [IdempotencyKey?] = []
    private(set) var reservationsMade = 0

    init(pricesFailures: Int = 0, answersToLose: Int = 0) {
        self.pricesFailures = pricesFailures
        self.answersToLose = answersToLose
    }

    func prices(of products: [String], reply: @escaping @Sendable (Result<[String: Int], Shop.ShopError>) -> Void) {
        let failing = lock.withLock {
            pricesFailures -= 1
            return pricesFailures >= 0
        }
        reply(failing ? .failure(.unavailable) : .success(["tea": 4, "mug": 9]))
    }

    func reserve(
        _ items: [String: Int], idempotencyKey: IdempotencyKey?,
        reply: @escaping @Sendable (Result<String, Shop.ShopError>) -> Void
    ) {
        let answer: Result<String, Shop.ShopError> = lock.withLock {
            keys.append(idempotencyKey)
            if let idempotencyKey, let first = answers[idempotencyKey] { return .success(first) }
            reservationsMade += 1
            let id = "reservation-\(reservationsMade)"
            if let idempotencyKey { answers[idempotencyKey] = id }
            answersToLose -= 1
            // The reservation happened, but the answer is lost on the way back.
            return answersToLose >= 0 ? .failure(.unavailable) : .success(id)
        }
        reply(answer)
    }
}

struct GettingStartedExampleTests {
    private let cart = Shop.Cart(items: ["tea": 2, "mug": 1])

    @Test func aLostAnswerIsRetriedWithTheSameKeyAndReservesOnce() async throws {
        let inventory = StubInventory(pricesFailures: 1, answersToLose: 1)
        let reservation = try await Shop.checkout(inventory: inventory).launch(with: cart)
        #expect(reservation == Shop.Reservation(id: "reservation-1", total: 17))
        #expect(inventory.reservationsMade == 1)
        #expect(inventory.keys.count == 2)
        #expect(inventory.keys[0] != nil && inventory.keys[0] == inventory.keys[1])
    }

    @Test func aStepWithSideEffectsIsNotRetriedUnlessItsPolicySaysSo() async throws {
        let inventory = StubInventory(answersToLose: 1)
        let careless = Scenario<Shop.PricedCart, Shop.Reservation>("Careless") { chain in
            chain.then(Step { Shop.ReserveStockOp(inventory: inventory) }.retrying(.transient(maxAttempts: 3)))
        }
        let error = await #expect(throws: StepFailure.self) {
            try await careless.launch(with: Shop.PricedCart(cart: cart, total: 17))
        }
        #expect(error?.attempt == 1)
        #expect(error?.note?.contains("side effects") == true)
        #expect(inventory.keys.count == 1)
    }

    @Test func theDiagramShowsTheCheckout() async throws {
        let diagram = try await Shop.drawCheckout(cart, inventory: StubInventory())
        #expect(diagram.contains("launch(cart)"))
        #expect(diagram.contains("PriceCartOp"))
        #expect(diagram.contains("ReserveStockOp"))
        #expect(diagram.contains("side effects, key idk"))
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("GettingStarted", in: #filePath)
        let article = try ArticleText.article("Sources/Operations/Operations.docc/GettingStarted.md")
        #expect(ArticleText.shows(example, importing: ["Operations", "OperationsDiagrams"], in: article))
    }
}
