import Dispatch
import Foundation
import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

// TheOperationContract.md's example, compiled: the block between the markers below must be the
// article's code block byte for byte (the last test checks).

// TheOperationContract example begin
/// A greenhouse's operations: one of each purity.
enum Greenhouse {
    /// A sensor that answers on a queue of its own: once, as promised, or twice, or never.
    protocol Sensor: Sendable {
        func temperature(of bed: String, reply: @escaping @Sendable (Result<Double, any Error>) -> Void)
    }

    protocol Valves: Sendable {
        /// Sets a bed's flow: setting the same flow twice leaves what setting it once leaves.
        func setFlow(_ litresPerHour: Int, bed: String, reply: @escaping @Sendable (Result<Void, any Error>) -> Void)
        /// Waters a bed: watering twice waters twice, unless the valves recognise the key.
        func water(
            _ litres: Int, bed: String, idempotencyKey: IdempotencyKey?,
            reply: @escaping @Sendable (Result<String, any Error>) -> Void)
    }

    struct Flow: Sendable, Codable, Equatable {
        var bed: String
        var litresPerHour: Int
    }

    struct Watering: Sendable, Codable, Equatable {
        var bed: String
        var litres: Int
    }

    /// Pure: reading changes nothing. Nobody holds the operation while the sensor works: its
    /// completion retains it until it finishes, lets the first reply through, drops a second one
    /// (reporting it to the environment's diagnostics), and finishes with `.cancelled` or
    /// `.timedOut` when the context's token fires or its deadline passes first.
    final class ReadTemperatureOp: PureOp {
        private let sensor: any Sensor
        init(sensor: any Sensor) { self.sensor = sensor }

        func launch(_ context: OpContext<String>, onFinish: @escaping OnFinish<Double>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            sensor.temperature(of: context.input) { completion.finish($0) }
        }
    }

    /// Idempotent: it changes the valves, but launching it again is safe by its nature.
    final class SetFlowOp: IdempotentOp {
        private let valves: any Valves
        init(valves: any Valves) { self.valves = valves }

        func launch(_ context: OpContext<Flow>, onFinish: @escaping OnFinish<Void>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            valves.setFlow(context.input.litresPerHour, bed: context.input.bed) { completion.finish($0) }
        }
    }

    /// Side effects: it sends its request with the key a scenario gives the launch, so a repeat
    /// of the request (a retry, a rerun) is recognised instead of watering twice.
    final class WaterOp: Op {
        private let valves: any Valves
        init(valves: any Valves) { self.valves = valves }

        func launch(_ context: OpContext<Watering>, onFinish: @escaping OnFinish<String>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            let watering = context.input
            valves.water(watering.litres, bed: watering.bed, idempotencyKey: context.idempotencyKey) {
                completion.finish($0)
            }
        }
    }
}
// TheOperationContract example end

/// Answers on a queue, `replies` times (0: never, holding on to the reply so nothing is
/// abandoned).
private final class QueueSensor: Greenhouse.Sensor, @unchecked Sendable {
    private let replies: Int
    private let lock = NSLock()
    private var held: [@Sendable (Result<Double, any Error>) -> Void] = []

    init(replies: Int) { self.replies = replies }

    func temperature(of bed: String, reply: @escaping @Sendable (Result<Double, any Error>) -> Void) {
        guard replies > 0 else { return lock.withLock { held.append(reply) } }
        let replies = replies
        DispatchQueue.global().async {
            for count in 0..<replies { reply(.success(21.5 + Double(count))) }
        }
    }
}

/// Valves that water once per key, and lose the answer to the first watering.
private final class KeyedValves: Greenhouse.Valves, @unchecked Sendable {
    struct LostAnswer: Error, RetryableError {
        var isTransient: Bool { true }
    }

    private let lock = NSLock()
    private var receipts: [IdempotencyKey: String] = [:]
    private(set) var waterings = 0
    private(set) var keys: [IdempotencyKey?] = []

    func setFlow(_ litresPerHour: Int, bed: String, reply: @escaping @Sendable (Result<Void, any Error>) -> Void) {
        reply(.success(()))
    }

    func water(
        _ litres: Int, bed: String, idempotencyKey: IdempotencyKey?,
        reply: @escaping @Sendable (Result<String, any Error>) -> Void
    ) {
        let answer: Result<String, any Error> = lock.withLock {
            keys.append(idempotencyKey)
            if let idempotencyKey, let first = receipts[idempotencyKey] { return .success(first) }
            waterings += 1
            let receipt = "watered-\(waterings)"
            if let idempotencyKey { receipts[idempotencyKey] = receipt }
            return waterings == 1 ? .failure(LostAnswer()) : .success(receipt)
        }
        reply(answer)
    }
}

struct TheOperationContractExampleTests {
    @Test func anOperationNobodyHoldsFinishesOnceAndIsReleased() throws {
        let report = LaunchProbe.launch(Greenhouse.ReadTemperatureOp(sensor: QueueSensor(replies: 1)), input: "bed 1")
        #expect(report.keptContract)
        #expect(report.released)
        #expect(try report.value() == 21.5)
    }

    @Test func aSecondReplyIsDroppedAndReported() throws {
        let diagnostics = DiagnosticsRecorder()
        let report = LaunchProbe.launch(
            Greenhouse.ReadTemperatureOp(sensor: QueueSensor(replies: 2)),
            context: OpContext("bed 1", environment: OpEnvironment(diagnostics: diagnostics)))
        #expect(try report.value() == 21.5)
        #expect(report.finishCount == 1)
        let deadline = ContinuousClock.now.advanced(by: .seconds(5))
        while diagnostics.count(.finishedTwice) == 0 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.001)
        }
        #expect(diagnostics.count(.finishedTwice) == 1)
    }

    @Test func aSensorThatNeverAnswersEndsAtTheDeadline() {
        let context = OpContext("bed 1", deadline: ContinuousClock.now.advanced(by: .milliseconds(50)))
        let report = LaunchProbe.launch(Greenhouse.ReadTemperatureOp(sensor: QueueSensor(replies: 0)), context: context)
        #expect(report.error as? OpError == .timedOut)
        #expect(report.finishCount == 1)
    }

    @Test func eachOperationDeclaresItsPurity() {
        #expect(Purity.of(Greenhouse.ReadTemperatureOp.self) == .pure)
        #expect(Purity.of(Greenhouse.SetFlowOp.self) == .idempotent)
        #expect(Purity.of(Greenhouse.WaterOp.self) == .sideEffects)
    }

    @Test func aWateringRetriedAfterALostAnswerWatersOnce() async throws {
        let valves = KeyedValves()
        let watering = Scenario<Greenhouse.Watering, String>("Watering") { chain in
            chain.then(
                Step { Greenhouse.WaterOp(valves: valves) }
                    .retrying(.transient(maxAttempts: 2, backoff: .immediate, relaunchesSideEffects: true)))
        }
        let receipt = try await watering.launch(with: Greenhouse.Watering(bed: "bed 1", litres: 3))
        #expect(receipt == "watered-1")
        #expect(valves.waterings == 1)
        #expect(valves.keys.count == 2)
        #expect(valves.keys[0] != nil && valves.keys[0] == valves.keys[1])
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("TheOperationContract", in: #filePath)
        let article = try ArticleText.article("Sources/Operations/Operations.docc/TheOperationContract.md")
        #expect(ArticleText.shows(example, importing: ["Operations"], in: article))
    }
}
