import Foundation
import Operations
import OperationsTestSupport
import Testing

// ChainingOperations.md's example, compiled: the block between the markers below must be the
// article's code block byte for byte (the last test checks).

// ChainingOperations example begin
/// Booking a trip: a main scenario with a nested one it goes back over when the fare changes.
enum Travel {
    struct Trip: Sendable, Codable, Equatable {
        var destination: String
        var wantsSeat: Bool
    }

    struct Booking: Sendable, Codable, Equatable {
        var trip: Trip
        var flight: String
        var fare: Int
        var seat: String? = nil
    }

    struct Ticket: Sendable, Codable, Equatable {
        var booking: Booking
        var receipt: String
    }

    enum TravelError: Error, Equatable {
        case fareChanged(to: Int)
    }

    protocol Airline: Sendable {
        func cheapestFlight(to destination: String) throws -> (flight: String, fare: Int)
        func seat(on flight: String) throws -> String
        func currentFare(of flight: String) throws -> Int
        func pay(_ amount: Int, idempotencyKey: IdempotencyKey?) throws -> String
    }

    final class FindFlightOp: PureOp {
        private let airline: any Airline
        init(airline: any Airline) { self.airline = airline }

        func launch(_ context: OpContext<Trip>, onFinish: @escaping OnFinish<Booking>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            completion.finish(
                Result {
                    let (flight, fare) = try airline.cheapestFlight(to: context.input.destination)
                    return Booking(trip: context.input, flight: flight, fare: fare)
                })
        }
    }

    final class ChooseSeatOp: PureOp {
        private let airline: any Airline
        init(airline: any Airline) { self.airline = airline }

        func launch(_ context: OpContext<Booking>, onFinish: @escaping OnFinish<Booking>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            var booking = context.input
            completion.finish(
                Result {
                    booking.seat = try airline.seat(on: booking.flight)
                    return booking
                })
        }
    }

    /// Fails with `fareChanged` when the fare is no longer the one the booking holds.
    final class CheckFareOp: PureOp {
        private let airline: any Airline
        init(airline: any Airline) { self.airline = airline }

        func launch(_ context: OpContext<Booking>, onFinish: @escaping OnFinish<Booking>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            completion.finish(
                Result {
                    let fare = try airline.currentFare(of: context.input.flight)
                    guard fare == context.input.fare else { throw TravelError.fareChanged(to: fare) }
                    return context.input
                })
        }
    }

    /// Side effects: the payment carries its request's key.
    final class PayOp: Op {
        private let airline: any Airline
        init(airline: any Airline) { self.airline = airline }

        func launch(_ context: OpContext<Int>, onFinish: @escaping OnFinish<String>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            completion.finish(
                Result { try airline.pay(context.input, idempotencyKey: context.idempotencyKey(for: "pay")) })
        }
    }

    /// The region gone over again as a whole: check the fare, then pay it.
    static func confirm(airline: any Airline) -> Scenario<Booking, Ticket> {
        Scenario("Confirm") { chain in
            chain
                .then(Step { CheckFareOp(airline: airline) })
                // The payment gets only the fare; the ticket is built from the booking and the receipt.
                .then(Step { PayOp(airline: airline) }, input: \.fare) { booking, receipt in
                    Ticket(booking: booking, receipt: receipt)
                }
        }
    }

    static func bookTrip(airline: any Airline) -> Scenario<Trip, Ticket> {
        Scenario("BookTrip") { chain in
            chain
                .then(Step { FindFlightOp(airline: airline) })
                .then(Step { ChooseSeatOp(airline: airline) }, when: \.trip.wantsSeat, describedAs: "seat wanted")
                .then(Step("Confirm") { confirm(airline: airline) }.onFailure(acceptNewFare))
        }
    }

    /// The handler of the nested scenario's step gets the nested scenario's failure: a
    /// `StepFailure` naming the step that failed inside it (`CheckFareOp`), whose `rootCause` is
    /// that operation's own error.
    static let acceptNewFare: FailureHandler<Booking, Ticket> = { failure, decide in
        let cause = (failure.error as? StepFailure)?.rootCause ?? failure.error
        guard failure.attempt == 1, case TravelError.fareChanged(let fare)? = cause as? TravelError else {
            return decide(.fail)
        }
        var booking = failure.input
        booking.fare = fare
        decide(.relaunch(booking, because: "fare changed to \(fare)"))
    }
}
// ChainingOperations example end

/// An airline whose fare goes up by 20 each time it is looked up after the first.
private final class RisingFares: Travel.Airline, @unchecked Sendable {
    private let lock = NSLock()
    private var lookups = 0
    private let rises: Int
    private(set) var payments: [Int] = []

    init(rises: Int) { self.rises = rises }

    func cheapestFlight(to destination: String) throws -> (flight: String, fare: Int) { ("XY123", 100) }

    func seat(on flight: String) throws -> String { "12A" }

    func currentFare(of flight: String) throws -> Int {
        lock.withLock {
            lookups += 1
            return 100 + 20 * min(lookups, rises)
        }
    }

    func pay(_ amount: Int, idempotencyKey: IdempotencyKey?) throws -> String {
        lock.withLock {
            payments.append(amount)
            return "receipt-\(amount)"
        }
    }
}

struct ChainingOperationsExampleTests {
    @Test func aChangedFareGoesBackOverTheRegionAndPaysTheNewFare() async throws {
        let airline = RisingFares(rises: 1)
        let ticket = try await Travel.bookTrip(airline: airline).launch(
            with: Travel.Trip(destination: "Lisbon", wantsSeat: true))
        #expect(ticket.booking.fare == 120)
        #expect(ticket.booking.seat == "12A")
        #expect(ticket.receipt == "receipt-120")
        #expect(airline.payments == [120])
    }

    @Test func aSeatNobodyWantsIsNotChosen() async throws {
        let ticket = try await Travel.bookTrip(airline: RisingFares(rises: 0)).launch(
            with: Travel.Trip(destination: "Lisbon", wantsSeat: false))
        #expect(ticket.booking.seat == nil)
        #expect(ticket.receipt == "receipt-100")
    }

    @Test func aFailureThatEndsTheRunNamesTheNestedStepAndItsRootCause() async throws {
        let airline = RisingFares(rises: 2)
        let failure = await #expect(throws: StepFailure.self) {
            try await Travel.bookTrip(airline: airline).launch(
                with: Travel.Trip(destination: "Lisbon", wantsSeat: false))
        }
        #expect(failure?.step == "Confirm")
        #expect(failure?.stepPath == ["Confirm", "CheckFareOp"])
        #expect((failure?.error as? StepFailure)?.scenario == "Confirm")
        #expect(failure?.rootCause as? Travel.TravelError == .fareChanged(to: 140))
        #expect(airline.payments.isEmpty)
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("ChainingOperations", in: #filePath)
        let article = try ArticleText.article("Sources/Operations/Operations.docc/ChainingOperations.md")
        #expect(ArticleText.shows(example, importing: ["Operations"], in: article))
    }
}
