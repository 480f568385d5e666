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
        // Journals name a run by its shape's name, so a rerun looks up "CheckoutScenario".
        runnableName: { ["checkout", "CheckoutScenario"].contains($0) ? "CheckoutScenario" : nil },
        shapes: { _, _ in [factory(Store(), settleEvery: defaultSettleEvery).checkoutScenario.shape] },
        explorations: [
            Exploration("checkout", summary: "CheckoutScenario with a coupon", flow: checkoutFlow),
            Exploration(
                "declined", summary: "CheckoutScenario with a declined card: the reservation is released",
                flow: declinedFlow),
        ],
        run: RunnerConfiguration.Launch(
            abstract: "Check out a cart",
            options: [
                CommandOption("--cart", value: "ID", "The cart to check out (default: the sample cart)"),
                CommandOption("--card", value: "TOKEN", "The card to pay with (default: tok_visa)"),
                CommandOption("--coupon", value: "CODE", "A coupon to apply, e.g. SAVE5"),
                CommandOption("--decline", value: "CARD", "The fake store declines this card"),
                CommandOption("--reserve-failures", value: "N", "The stock service is busy N times first (retried)"),
                CommandOption("--confirm-failures", value: "N", "Confirming the order fails N times (then rerun)"),
                CommandOption(
                    "--pending-polls", value: "N", "The payment is still pending at the first N settlement polls"),
                CommandOption(
                    "--settle-every", value: "DURATION",
                    "The wait between two settlement polls, e.g. 30s (default: \(defaultSettleEvery))"),
            ]),
        prepareRun: { request in
            let arguments = request.arguments
            let faults = Store.Faults(
                reserveFailures: try arguments.count("--reserve-failures", command: "run"),
                declinedCards: Set([try arguments.nonEmptyValue("--decline", command: "run")].compactMap { $0 }),
                confirmFailures: try arguments.count("--confirm-failures", command: "run"),
                pendingSettlementPolls: try arguments.count("--pending-polls", command: "run"))
            let settleEvery = try arguments.nonEmptyValue("--settle-every", command: "run") ?? defaultSettleEvery
            guard TimeArgument.duration(settleEvery) != nil else {
                throw UsageError(
                    "--settle-every '\(ParsedArguments.clip(settleEvery))' is not a duration (30s, 5m)", command: "run")
            }
            let order = CheckoutRequest(
                cartID: try arguments.nonEmptyValue("--cart", command: "run") ?? Store.sampleCart.id,
                card: try arguments.nonEmptyValue("--card", command: "run") ?? "tok_visa",
                coupon: try arguments.nonEmptyValue("--coupon", command: "run"))
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
        })

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
