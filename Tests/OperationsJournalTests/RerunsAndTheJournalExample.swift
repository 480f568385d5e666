import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

// RerunsAndTheJournal.md's example, compiled: the block between the markers below must be the
// article's code block byte for byte (the last test checks).

// RerunsAndTheJournal example begin
/// Shipping a parcel: buy a label, then book its pickup; both act on the carrier.
enum Shipping {
    struct Parcel: Sendable, Codable, Equatable {
        var id: String
        var grams: Int
    }

    struct Label: Sendable, Codable, Equatable {
        var parcel: Parcel
        var tracking: String
    }

    struct NotResumable: Error {}

    protocol Carrier: Sendable {
        func buyLabel(for parcel: Parcel, idempotencyKey: IdempotencyKey?) throws -> String
        func bookPickup(of tracking: String, idempotencyKey: IdempotencyKey?) throws -> String
    }

    final class BuyLabelOp: Op {
        private let carrier: any Carrier
        init(carrier: any Carrier) { self.carrier = carrier }

        func launch(_ context: OpContext<Parcel>, onFinish: @escaping OnFinish<Label>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            completion.finish(
                Result {
                    let tracking = try carrier.buyLabel(
                        for: context.input, idempotencyKey: context.idempotencyKey(for: "label"))
                    return Label(parcel: context.input, tracking: tracking)
                })
        }
    }

    final class BookPickupOp: Op {
        private let carrier: any Carrier
        init(carrier: any Carrier) { self.carrier = carrier }

        func launch(_ context: OpContext<Label>, onFinish: @escaping OnFinish<String>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            completion.finish(
                Result {
                    try carrier.bookPickup(
                        of: context.input.tracking, idempotencyKey: context.idempotencyKey(for: "pickup"))
                })
        }
    }

    static func shipParcel(carrier: any Carrier) -> Scenario<Parcel, String> {
        Scenario("ShipParcel") { chain in
            chain
                .then(Step { BuyLabelOp(carrier: carrier) })
                .then(Step { BookPickupOp(carrier: carrier) })
        }
    }

    /// A new run, journaled in `store` (its input too) from the start; `store.runs()` lists it.
    static func ship(_ parcel: Parcel, carrier: any Carrier, store: RunStore) async throws -> String {
        let scenario = shipParcel(carrier: carrier)
        let journal = try store.create(scenario: scenario, input: parcel)
        defer { try? journal.close() }
        return try await scenario.launch(OpContext(parcel, environment: OpEnvironment(observer: journal)))
    }

    /// Resumes a run that failed or was killed: the steps that succeeded are replayed from the
    /// journal, not launched; a step with side effects launched again repeats its recorded key.
    static func rerun(_ id: RunID, carrier: any Carrier, store: RunStore) async throws -> String {
        let scenario = shipParcel(carrier: carrier)
        // Refused, before anything is written or launched, when this build's scenario could not
        // resume the run.
        let journal = try store.resume(id, scenario: scenario)
        defer { try? journal.close() }
        guard let parcel = try journal.resumedFrom?.input(as: Parcel.self) else { throw NotResumable() }
        let environment = OpEnvironment(observer: journal, replay: journal.replay)
        return try await scenario.launch(OpContext(parcel, environment: environment))
    }
}
// RerunsAndTheJournal example end

/// A carrier that answers a repeated key with its first answer, and whose pickup desk can book
/// and then lose the answer.
private final class KeyedCarrier: Shipping.Carrier, @unchecked Sendable {
    struct LostAnswer: Error {}

    private let lock = NSLock()
    private var answers: [IdempotencyKey: String] = [:]
    private var pickupAnswersToLose: Int
    private(set) var labelsBought = 0
    private(set) var pickupsBooked = 0
    private(set) var pickupKeys: [IdempotencyKey?] = []

    init(pickupAnswersToLose: Int) { self.pickupAnswersToLose = pickupAnswersToLose }

    func buyLabel(for parcel: Shipping.Parcel, idempotencyKey: IdempotencyKey?) throws -> String {
        lock.withLock {
            if let idempotencyKey, let first = answers[idempotencyKey] { return first }
            labelsBought += 1
            let tracking = "TRK-\(labelsBought)"
            if let idempotencyKey { answers[idempotencyKey] = tracking }
            return tracking
        }
    }

    func bookPickup(of tracking: String, idempotencyKey: IdempotencyKey?) throws -> String {
        try lock.withLock {
            pickupKeys.append(idempotencyKey)
            if let idempotencyKey, let first = answers[idempotencyKey] { return first }
            pickupsBooked += 1
            let pickup = "pickup-\(pickupsBooked) for \(tracking)"
            if let idempotencyKey { answers[idempotencyKey] = pickup }
            pickupAnswersToLose -= 1
            if pickupAnswersToLose >= 0 { throw LostAnswer() }
            return pickup
        }
    }
}

struct RerunsAndTheJournalExampleTests {
    private let parcel = Shipping.Parcel(id: "P-7", grams: 800)

    @Test func aRerunReplaysTheLabelAndRepeatsThePickupsKey() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("article-journal-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = RunStore(stateDirectory: directory)
        let carrier = KeyedCarrier(pickupAnswersToLose: 1)

        await #expect(throws: StepFailure.self) {
            try await Shipping.ship(parcel, carrier: carrier, store: store)
        }
        let id = try #require(try store.runs().first?.id)
        let pickup = try await Shipping.rerun(id, carrier: carrier, store: store)

        #expect(pickup == "pickup-1 for TRK-1")
        #expect(carrier.labelsBought == 1)
        #expect(carrier.pickupsBooked == 1)
        #expect(carrier.pickupKeys.count == 2)
        #expect(carrier.pickupKeys[0] != nil && carrier.pickupKeys[0] == carrier.pickupKeys[1])
        #expect(try store.load(id).status == .succeeded)
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("RerunsAndTheJournal", in: #filePath)
        let article = try ArticleText.article("Sources/OperationsJournal/OperationsJournal.docc/RerunsAndTheJournal.md")
        #expect(ArticleText.shows(example, importing: ["Foundation", "Operations", "OperationsJournal"], in: article))
    }
}
