import Operations
import OperationsTestSupport
import OperationsTesting
import Synchronization
import Testing

// TestingOperations.md's example, compiled and run: the block between the markers below must be
// the article's code block byte for byte (the last test checks).

// TestingOperations example begin
/// The code under test: a forecast fetched from a service that answers on its own schedule.
enum Weather {
    struct Offline: Error, RetryableError {
        var isTransient: Bool { true }
    }

    protocol Forecasts: Sendable {
        func temperature(in city: String, reply: @escaping @Sendable (Result<Int, any Error>) -> Void)
    }

    final class ForecastOp: PureOp {
        private let forecasts: any Forecasts
        init(forecasts: any Forecasts) { self.forecasts = forecasts }

        func launch(_ context: OpContext<String>, onFinish: @escaping OnFinish<Int>) {
            let completion = Completion(retaining: self, context: context, onFinish: onFinish)
            // The messages a diagram of the run shows; nothing is built when tracing is off.
            let service = Participant.keyService("Forecasts")
            completion.trace?.message(to: service, "temperature(in: \(context.input))")
            forecasts.temperature(in: context.input) { result in
                completion.trace?.reply(from: service, (try? result.get()).map { "\($0)°" } ?? "offline")
                completion.finish(result)
            }
        }
    }

    /// Tries twice, 5 seconds apart.
    static func morning(forecasts: any Forecasts) -> Scenario<String, Int> {
        Scenario("Morning") { chain in
            chain.then(
                Step { ForecastOp(forecasts: forecasts) }
                    .retrying(.transient(maxAttempts: 2, backoff: Backoff(initial: .seconds(5), jitter: 0))))
        }
    }
}

/// A stub that answers from a script, then with 18°.
final class ScriptedForecasts: Weather.Forecasts {
    private let script: Mutex<[Result<Int, any Error>]>
    init(_ script: [Result<Int, any Error>] = []) { self.script = Mutex(script) }

    func temperature(in city: String, reply: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        reply(script.withLock { $0.isEmpty ? .success(18) : $0.removeFirst() })
    }
}

struct WeatherTests {
    @Test func theForecastKeepsTheContract() throws {
        let report = LaunchProbe.launch(Weather.ForecastOp(forecasts: ScriptedForecasts()), input: "Oslo")
        #expect(report.keptContract)  // finished once, released, no diagnostics
        #expect(try report.value() == 18)
    }

    @Test func theForecastAsksTheServiceOnce() async throws {
        let tracer = InMemoryTracer()
        var context = OpContext("Oslo")
        context.trace = .root(tracer, caller: .caller("Test"))
        _ = try await Weather.ForecastOp(forecasts: ScriptedForecasts()).launchAndAwait(context)
        let mismatch = tracer.trace.mismatch(
            expecting: [
                .call(from: "ForecastOp", to: "Forecasts", "temperature(in: Oslo)"),
                .reply(from: "Forecasts", to: "ForecastOp", "18°"),
            ],
            matching: .subsequence)
        #expect(mismatch == nil, "\(mismatch.map(String.init(describing:)) ?? "")")
    }

    @Test func anOfflineServiceIsAskedAgainAfterTheBackoff() async throws {
        let scheduler = TestScheduler()
        let recorder = ScenarioRecorder()
        let environment = OpEnvironment(scheduler: scheduler, observer: recorder)
        let morning = Weather.morning(forecasts: ScriptedForecasts([.failure(Weather.Offline())]))
        async let temperature = morning.launch(with: "Oslo", environment: environment)
        // The first attempt failed and the retry waits on the test's clock, not the wall clock.
        try await scheduler.waitForPendingWork()
        #expect(scheduler.requestedDelays == [.seconds(5)])
        scheduler.advance(by: .seconds(5))
        #expect(try await temperature == 18)
        #expect(recorder.stepLines.first == "ForecastOp launched #1")
        #expect(recorder.stepLines.last == "ForecastOp succeeded #2")
    }
}
// TestingOperations example end

struct TestingOperationsExampleTests {
    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("TestingOperations", in: #filePath)
        let article = try ArticleText.article("Sources/Operations/Operations.docc/TestingOperations.md")
        #expect(
            ArticleText.shows(
                example, importing: ["Operations", "OperationsTesting", "Synchronization", "Testing"], in: article))
    }
}
