import Checkout
import Foundation
import Operations
import OperationsJournal
import OperationsRunner

/// `checkout`: the checkout scenario on the runner, against a fake store whose records are kept
/// in the state directory (``StoreStateFile``), so a rerun meets the store the run left. The
/// whole program is one ``RunnerConfiguration``; the runner gives it its commands, help, journal,
/// exit statuses and failure messages.
enum CheckoutProgram: RunnerProgram {
    static let configuration = RunnerConfiguration(
        name: "checkout", version: "0.1.0",
        overview: "Check out a cart against a fake store kept in the state directory, journaled and resumable.",
        examples: ["checkout run checkout --card tok_visa --coupon SAVE5", "checkout rerun RUN_ID"],
        scenarios: [ScenarioListing(name: "checkout", summary: "CheckoutScenario", isScenario: true)],
        shapes: { _, _ in [factory(Store(), settleEvery: defaultSettleEvery).checkoutScenario.shape] },
        prepareRun: { request in
            let arguments = request.arguments
            let faults = Store.Faults(
                reserveFailures: try arguments.count(Option.reserveFailures, command: "run"),
                declinedCards: Set([try arguments.nonEmptyValue(Option.decline, command: "run")].compactMap { $0 }),
                confirmFailures: try arguments.count(Option.confirmFailures, command: "run"),
                pendingSettlementPolls: try arguments.count(Option.pendingPolls, command: "run"))
            let settleEvery = try arguments.nonEmptyValue(Option.settleEvery, command: "run") ?? defaultSettleEvery
            guard TimeArgument.duration(settleEvery) != nil else {
                throw UsageError(
                    "--settle-every '\(ParsedArguments.clip(settleEvery))' is not a duration (30s, 5m)", command: "run")
            }
            let order = CheckoutRequest(
                cartID: try arguments.nonEmptyValue(Option.cart, command: "run") ?? Store.sampleCart.id,
                card: try arguments.nonEmptyValue(Option.card, command: "run") ?? "tok_visa",
                coupon: try arguments.nonEmptyValue(Option.coupon, command: "run"))
            let store = Store(faults: faults, keeper: StoreStateFile(stateDirectory: request.stateDirectory))
            // The wait between polls is durable with the header, so a rerun polls alike.
            return prepared(store, settleEvery: settleEvery, settings: ["settleEvery": settleEvery]) { order }
        },
        prepareRerun: { request, record in
            // With the program's sealer (none: a checkout carries payment tokens, never card
            // numbers), so that a sealer given later opens a sealed request too.
            let store = Store(keeper: StoreStateFile(stateDirectory: request.stateDirectory))
            return prepared(store, settleEvery: record.settings["settleEvery"] ?? defaultSettleEvery) {
                try record.input(as: CheckoutRequest?.self, sealer: request.sealer) ?? nil
            }
        }
    ).with { program in
        // Journals name a run by its shape's name, so a rerun looks up "CheckoutScenario".
        program.runnableName = { ["checkout", "CheckoutScenario"].contains($0) ? "CheckoutScenario" : nil }
        program.explorations = [
            Exploration("checkout", summary: "CheckoutScenario with a coupon", flow: checkoutFlow),
            Exploration(
                "declined", summary: "CheckoutScenario with a declined card: the reservation is released",
                flow: declinedFlow),
        ]
        program.run = RunnerConfiguration.Launch(
            abstract: "Check out a cart",
            options: [
                Option.cart, Option.card, Option.coupon, Option.decline, Option.reserveFailures,
                Option.confirmFailures, Option.pendingPolls, Option.settleEvery,
            ])
    }

    /// The options of `checkout run`, each declared once: the runner parses them and prints their
    /// help from these values, and `prepareRun` reads them back through them.
    enum Option {
        static let cart = CommandOption("--cart", value: "ID", "The cart to check out (default: the sample cart)")
        static let card = CommandOption("--card", value: "TOKEN", "The card to pay with (default: tok_visa)")
        static let coupon = CommandOption("--coupon", value: "CODE", "A coupon to apply, e.g. SAVE5")
        static let decline = CommandOption("--decline", value: "CARD", "The fake store declines this card")
        static let reserveFailures = CommandOption(
            "--reserve-failures", value: "N", "The stock service is busy N times first (retried)")
        static let confirmFailures = CommandOption(
            "--confirm-failures", value: "N", "Confirming the order fails N times (then rerun)")
        static let pendingPolls = CommandOption(
            "--pending-polls", value: "N", "The payment is still pending at the first N settlement polls")
        static let settleEvery = CommandOption(
            "--settle-every", value: "DURATION",
            "The wait between two settlement polls, e.g. 30s (default: \(defaultSettleEvery))")
    }

    /// The wait between two settlement polls when `--settle-every` is not given.
    static let defaultSettleEvery = "2s"

    /// The checkout's operations over `store`, polling the settlement every `settleEvery`.
    private static func factory(_ store: Store, settleEvery: String) -> CheckoutFactory {
        let seconds = TimeArgument.duration(settleEvery) ?? 2
        return CheckoutFactory(
            store: store, settlement: SettlementPolling(interval: .milliseconds(Int64(seconds * 1000)), polls: 10))
    }

    /// How a failed checkout reads: the runner's reading, except that a cart or a coupon the
    /// store does not know is the request's own mistake. A rerun replays the same request and
    /// would fail the same way, so none is offered; the hint says what helps instead.
    private static func explain(_ failure: RunFailure) -> FailureReading {
        var reading = failure.reading
        switch failure.cause as? StoreError {
        case .unknownCart?:
            reading.rerunnable = false
            reading.hint =
                "A rerun would ask for the same cart: run 'checkout run' with --cart set to one the store has."
        case .unknownCoupon?:
            reading.rerunnable = false
            reading.hint = "A rerun would apply the same coupon: run 'checkout run' with another --coupon, or none."
        default:
            break
        }
        return reading
    }

    /// A run of the checkout against `store`, its settlement polled every `settleEvery`.
    private static func prepared(
        _ store: Store, settleEvery: String, settings: [String: String] = [:],
        input: @escaping @Sendable () throws -> CheckoutRequest?
    ) -> PreparedRun<CheckoutRequest> {
        let scenario = factory(store, settleEvery: settleEvery).checkoutScenario
        return PreparedRun(shape: scenario.shape, settings: settings, explain: explain, makeInput: input) {
            context, onFinish in
            guard let request = context.input else { return onFinish(.failure(CLIError.message("no request"))) }
            scenario.launch(context.with(input: request)) { result in
                onFinish(result.map { RunOutcome(sentence: "Order \($0.orderNumber) confirmed: \($0.amount) cents.") })
            }
        }
    }
}
