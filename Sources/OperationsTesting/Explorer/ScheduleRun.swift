import Dispatch
import Foundation
import Operations
import OperationsJournal

/// One schedule run to its end: every session (process) the faults make, a rerun after each
/// failed one until the run succeeds, and the invariants checked after.
struct ScheduleRun<Input: Sendable, Output: Sendable> {
    let schedule: FaultSchedule
    let makeFlow: @Sendable (FaultWorld) -> ExploredFlow<Input, Output>
    /// Records the sessions' messages for a violation's diagram.
    let tracer: InMemoryTracer?

    /// What the run showed.
    struct Outcome {
        var boundaries: [Boundary]
        var problems: [String]
    }

    /// A session's end, waited for without sleeping: the scheduler's work is run whenever the
    /// flow waits on it, and a flow that waits on nothing and never finishes is a violation.
    private enum SessionEnd {
        case finished(Result<Output, any Error>)
        case stuck
    }

    func run() -> Outcome {
        let scheduler = TestScheduler()
        let world = FaultWorld(schedule: schedule, scheduler: scheduler)
        let flow = makeFlow(world)
        // Worked out once: every session's check, create and resume compare against it.
        let shape = flow.scenario.shape
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("explore-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("run.jsonl")
        let diagnostics = DiagnosticsRecorder()
        let inFlight = InFlightRegistry()
        var problems: [String] = []
        let keys = IdempotencyKey.sequence(prefix: "e")
        // Every fault can cost a session; past that the run must be finished by reruns.
        let sessionLimit = schedule.entries.count + 3
        var succeeded = false
        var lastFailure = "it never started"

        for session in 1...sessionLimit {
            world.beginSession()
            let journal: ScenarioJournal
            do {
                if FileManager.default.fileExists(atPath: url.path) {
                    let verdict = Self.checkVerdict(url, shape: shape)
                    do {
                        journal = try ScenarioJournal.resume(
                            at: url, expecting: shape, durability: .buffered, sealer: nil, io: world.io)
                    } catch {
                        // The disk failed the resumed line, or the process died writing it.
                        if world.isDead { continue }
                        if case .io = error { continue }
                        if verdict == nil {
                            problems.append("check said the run could be resumed, and the rerun refused it: \(error)")
                        }
                        lastFailure = "\(error)"
                        break
                    }
                    if let verdict { problems.append("check refused a run the rerun resumed: \(verdict)") }
                } else {
                    journal = try ScenarioJournal.create(
                        at: url, scenario: flow.scenario.name, shape: shape, input: flow.input,
                        io: world.io)
                }
            } catch {
                // The header could not be written: no run exists yet, the next process starts one.
                lastFailure = "\(error)"
                try? FileManager.default.removeItem(at: url)
                continue
            }
            let token = CancellationToken()
            world.onInterrupt {
                journal.noteInterruption()
                token.cancel()
            }
            let environment = OpEnvironment(
                scheduler: scheduler, diagnostics: diagnostics, inFlight: inFlight, observer: journal,
                replay: journal.replay, random: { 0.5 }, makeIdempotencyKey: keys)
            var context = OpContext(flow.input, cancellation: token, environment: environment)
            if let tracer {
                context.trace = .root(tracer, caller: .caller("session \(session)"))
            }
            let end = wait(flow.scenario, context, scheduler)
            try? journal.close()
            // The handler holds the journal, whose disk holds the world: let go of the cycle.
            world.beginSession()
            guard case .finished(let result) = end else {
                problems.append("session \(session) never finished: a launch was left waiting on nothing")
                break
            }
            if !inFlight.entries.isEmpty {
                let names = inFlight.entries.map(\.operation).joined(separator: ", ")
                problems.append("session \(session) finished with launches still in flight: \(names)")
            }
            if flow.finishedWhen(result), !world.isDead {
                succeeded = true
                break
            }
            if case .failure(let error) = result { lastFailure = "\(error)" }
        }

        if !succeeded && problems.isEmpty {
            problems.append(
                "the run did not finish after \(sessionLimit) sessions with the faults over: \(lastFailure)")
        }
        if succeeded, let problem = flow.finalCheck() { problems.append(problem) }
        for (effect, count) in world.effects.sorted(by: { $0.key < $1.key }) where count > 1 {
            problems.append("\(effect) acted \(count) times")
        }
        let twice = diagnostics.diagnostics.filter { $0.kind == .finishedTwice }
        if !twice.isEmpty { problems.append("\(twice.count) launch(es) finished twice") }
        if let bytes = try? Data(contentsOf: url) {
            for secret in flow.secrets where Self.holds(bytes, secret) {
                problems.append("the journal holds a secret in clear (\(Redaction.token(secret)))")
            }
            if (try? ScenarioJournal.loadSkippingDamage(url)) == nil {
                problems.append("the journal no longer reads")
            }
        }
        // The scratch folder differs from run to run; the problems read the same without it.
        let named = problems.map { $0.replacingOccurrences(of: url.path, with: "the journal") }
        return Outcome(boundaries: world.boundaries, problems: named)
    }

    /// Whether `secret` stands in `bytes` as a value of its own: not inside a longer run of
    /// letters and digits (a code of six digits inside a timestamp is no leak).
    static func holds(_ bytes: Data, _ secret: String) -> Bool {
        let needle = Array(secret.utf8)
        let haystack = Array(bytes)
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
        }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            guard haystack[start..<start + needle.count].elementsEqual(needle) else { continue }
            let before = start > 0 ? haystack[start - 1] : 0x20
            let after = start + needle.count < haystack.count ? haystack[start + needle.count] : 0x20
            if !isWordByte(before) && !isWordByte(after) { return true }
        }
        return false
    }

    /// Why a check of the journal says the run cannot be resumed; `nil` when it can.
    private static func checkVerdict(_ url: URL, shape: ScenarioShape) -> String? {
        do {
            try ScenarioJournal.loadSkippingDamage(url).checkResumable(by: shape)
            return nil
        } catch {
            return "\(error)"
        }
    }

    private func wait(_ scenario: Scenario<Input, Output>, _ context: OpContext<Input>, _ scheduler: TestScheduler)
        -> SessionEnd
    {
        let result = LockedState<Result<Output, any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        scenario.launch(context) { outcome in
            let first = result.withLock { stored -> Bool in
                guard stored == nil else { return false }
                stored = outcome
                return true
            }
            if first { finished.signal() }
        }
        var idle = 0
        while true {
            if let done = result.withLock({ $0 }) { return .finished(done) }
            if scheduler.runNext() {
                idle = 0
                continue
            }
            // Work on another thread (a service answering asynchronously) may still come back.
            if finished.wait(timeout: .now() + .milliseconds(20)) == .success {
                finished.signal()
                continue
            }
            idle += 1
            if idle >= 100 { return .stuck }
        }
    }
}
