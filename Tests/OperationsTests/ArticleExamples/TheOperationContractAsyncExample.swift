import Operations
import OperationsTestSupport
import OperationsTesting
import Testing

// TheOperationContract.md's async example, compiled: the block between the markers below must
// be the article's second code block byte for byte (the last test checks).

// TheOperationContractAsync example begin
extension Greenhouse {
    /// The sensor as async code sees it: one `await`, which a cancelled task leaves early.
    protocol AsyncSensor: Sendable {
        func temperature(of bed: String) async throws -> Double
    }

    /// `ReadTemperatureOp` written as an async function. The default `launch` keeps the same
    /// contract: one run per launch, one finish, the operation alive until `run` returns. A
    /// launch cancelled through its context (its token, its deadline) cancels `run`'s task; a
    /// `CancellationError` out of `run` finishes the launch as cancelled.
    final class ReadTemperatureAsyncOp: AsyncOp, PureOp {
        private let sensor: any AsyncSensor
        init(sensor: any AsyncSensor) { self.sensor = sensor }

        func run(_ bed: String, context: OpContext<String>) async throws -> Double {
            // `context.trace` is this operation's own scope: the arrow starts here.
            context.trace?.message(to: .keyService("Sensor"), "temperature(of: \(bed))")
            return try await sensor.temperature(of: bed)
        }
    }

    /// A step whose work is one call needs no type of its own.
    static func morningReading(sensor: any AsyncSensor) -> Scenario<String, Double> {
        Scenario("MorningReading") { chain in
            chain.then(Step("ReadTemperature", purity: .pure) { bed, _ in try await sensor.temperature(of: bed) })
        }
    }
}
// TheOperationContractAsync example end

/// Answers at once, or never (waiting on a gate nobody opens, until its task is cancelled).
private struct GatedSensor: Greenhouse.AsyncSensor {
    let answers: Bool
    let gate = AsyncGate()

    func temperature(of bed: String) async throws -> Double {
        guard answers else {
            try await gate.wait()
            return 0
        }
        return 21.5
    }
}

struct TheOperationContractAsyncExampleTests {
    @Test func theAsyncFormKeepsTheContract() async throws {
        let report = await LaunchProbe.awaitLaunch(
            { Greenhouse.ReadTemperatureAsyncOp(sensor: GatedSensor(answers: true)) }, context: OpContext("bed 1"))
        #expect(report.keptContract)
        #expect(try report.value() == 21.5)
        #expect(Purity.of(Greenhouse.ReadTemperatureAsyncOp.self) == .pure)
    }

    @Test func aSensorThatNeverAnswersIsCancelledAtTheDeadline() async throws {
        let scheduler = TestScheduler()
        let context = OpContext("bed 1", environment: OpEnvironment(scheduler: scheduler)).withTimeout(.seconds(5))
        let reading = Task {
            try await Greenhouse.ReadTemperatureAsyncOp(sensor: GatedSensor(answers: false)).launch(context)
        }
        try await scheduler.waitForPendingWork()
        scheduler.advance(by: .seconds(5))
        await #expect(throws: OpError.timedOut) { try await reading.value }
    }

    @Test func aClosureStepReads() async throws {
        #expect(try await Greenhouse.morningReading(sensor: GatedSensor(answers: true)).launch(with: "bed 1") == 21.5)
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("TheOperationContractAsync", in: #filePath)
        let article = try ArticleText.article("Sources/Operations/Operations.docc/TheOperationContract.md")
        #expect(ArticleText.shows(example, importing: ["Operations"], in: article))
    }
}
