import Checkout
import Foundation
import Operations
import OperationsJournal
import OperationsRunner

/// `checkout`: the checkout scenario on the runner, against a fake store made per process.
enum CheckoutProgram: LaunchingProgram {
    typealias Input = CheckoutRequest

    static let name = "checkout"
    static let version = "0.1.0"
    static let overview = "Check out a cart against a fake in-memory store, journaled and resumable."
    static let examples = ["checkout run checkout --card tok_visa --coupon SAVE5", "checkout rerun RUN_ID"]
    static var commands: [any Command.Type] {
        [
            RunScenario<Self>.self, RerunScenario<Self>.self, ListRuns<Self>.self, ShowRun<Self>.self,
            CheckRuns<Self>.self, PruneRuns<Self>.self, DrawRun<Self>.self, ListScenarios<Self>.self,
            ExploreFlows<Self>.self,
        ]
    }
    static let scenarios = [ScenarioListing(name: "checkout", summary: "CheckoutScenario", isScenario: true)]
    static let scenarioNamesHelp = "checkout"
    static let runnablesInWords = "checkout"
    /// Journals name a run by its shape's name, so a rerun looks up "CheckoutScenario".
    static func runnableName(_ typed: String) -> String? {
        ["checkout", "CheckoutScenario"].contains(typed) ? "CheckoutScenario" : nil
    }
    static func shapes(stateDirectory: URL, console: Console) -> [ScenarioShape] {
        [CheckoutFactory(store: Store()).checkoutScenario.shape]
    }

    static let runAbstract = "Check out a cart"
    static let declaredRunOptions = [
        CommandOption("--cart", value: "ID", "The cart to check out (default: the sample cart)"),
        CommandOption("--card", value: "TOKEN", "The card to pay with (default: tok_visa)"),
        CommandOption("--coupon", value: "CODE", "A coupon to apply, e.g. SAVE5"),
        CommandOption("--decline", value: "CARD", "The fake store declines this card"),
        CommandOption("--reserve-failures", value: "N", "The stock service is busy N times first (retried)"),
        CommandOption("--confirm-failures", value: "N", "Confirming the order fails N times (then rerun)"),
    ]

    static func prepareRun(_ name: String, arguments: ParsedArguments, console: Console, stateDirectory: URL) throws
        -> PreparedRun<CheckoutRequest>
    {
        let count = { (option: String) in Int(arguments.value(option) ?? "0") ?? 0 }
        let faults = Store.Faults(
            reserveFailures: count("--reserve-failures"),
            declinedCards: Set([arguments.value("--decline")].compactMap { $0 }),
            confirmFailures: count("--confirm-failures"))
        let request = CheckoutRequest(
            cartID: arguments.value("--cart") ?? Store.sampleCart.id, card: arguments.value("--card") ?? "tok_visa",
            coupon: arguments.value("--coupon"))
        return prepared(Store(faults: faults)) { request }
    }

    static func prepareRerun(
        _ name: String, record: JournalRecord, arguments: ParsedArguments, console: Console, stateDirectory: URL
    ) throws -> PreparedRun<CheckoutRequest> {
        // With the program's sealer (none: a checkout carries payment tokens, never card
        // numbers), so that a sealer given later opens a sealed request too.
        prepared(Store()) { try record.input(as: CheckoutRequest?.self, sealer: journalSealer) ?? nil }
    }

    /// A run of the checkout against `store`.
    private static func prepared(_ store: Store, input: @escaping @Sendable () throws -> CheckoutRequest?)
        -> PreparedRun<CheckoutRequest>
    {
        let scenario = CheckoutFactory(store: store).checkoutScenario
        return PreparedRun(shape: scenario.shape, makeInput: input) { context, onFinish in
            guard let request = context.input else { return onFinish(.failure(CLIError.message("no request"))) }
            scenario.launch(context.with(input: request)) { result in
                onFinish(result.map { RunOutcome(sentence: "Order \($0.orderNumber) confirmed: \($0.amount) cents.") })
            }
        }
    }
}
