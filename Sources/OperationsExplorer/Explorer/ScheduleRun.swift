import Dispatch
import Foundation
import Operations
import OperationsJournal

/// One schedule run to its end: every session (process) the faults make, a rerun after each
/// one that did not finish until the run ends as the flow says it must, then — when it ended
/// otherwise than succeeded — reruns while `check` offers one, and one more to see it refused;
/// and the invariants checked after:
///
/// - every effect is performed at most once over all sessions;
/// - the run ends as the flow says (``ExploredFlow/finishedWhen``) once the faults stop, and
///   its final check holds;
/// - `check` (``ResumeCheck``) and the rerun agree before every session: a rerun is refused
///   exactly when `check` says the run cannot be resumed (finished, undone, stranded);
/// - nothing is done after an undo: a session on a run `check` calls undone launches no step
///   and performs no effect;
/// - no launch is left waiting on nothing, in flight when its session ends, or finished twice;
/// - the journal reads, and holds no declared secret in clear.
///
/// Each session is a process of its own on a clock of its own, whose wall clock starts where
/// the last process stopped, or ``FaultExplorer/restartDelay`` later after
/// ``Fault/restartLater``.
struct ScheduleRun<Input: Sendable, Output: Sendable> {
    let schedule: FaultSchedule
    let makeFlow: @Sendable (FaultWorld) -> ExploredFlow<Input, Output>
    let sealer: (any JournalSealer)?
    let restartDelay: Duration
    let tracer: InMemoryTracer?
    /// The explorer's thread's folder, for the run's journal, removed once the run is checked.
    let directory: URL

    /// How many reruns at most follow a session the flow calls finished with a failure.
    static var confirmingReruns: Int { 2 }

    typealias Outcome = (boundaries: [Boundary], problems: [String])

    /// What `check` said of the journal before a session: whether it offers a rerun (resumable,
    /// or left running by a dead process), whether the run is undone, whether the journal read.
    private struct Verdict {
        var offersRerun = false
        var isUndone = false
        var reads = true
        let text: String
    }

    func run() -> Outcome {
        let world = FaultWorld(schedule: schedule, scheduler: TestScheduler())
        let flow = makeFlow(world)
        // Worked out once: every session's check, create and resume compare against it.
        let shape = flow.scenario.shape
        let url = directory.appendingPathComponent("run.jsonl")
        // The folder is the thread's for every schedule it runs: the journal goes with its sync
        // mark, before and after, or the next schedule's journal would read as having lost lines.
        ScenarioJournal.removeWithMark(at: url)
        defer { ScenarioJournal.removeWithMark(at: url) }
        let diagnostics = DiagnosticsRecorder()
        let inFlight = InFlightRegistry()
        var problems: [String] = []
        let keys = IdempotencyKey.sequence(prefix: "e")
        // Every fault can cost a session; past that the run must be finished by reruns, and
        // then a few reruns more must find nothing left to do.
        let sessionLimit = schedule.entries.count + 3 + Self.confirmingReruns
        var finishedIn: Int?
        var lastFailure = "it never started"
        var wallClock = TestScheduler.defaultWallClock
        // Whether the journal read when it was last checked with nothing written since.
        var readsAtEnd: Bool?
        // The run's id, which is no value of the run's and may spell any secret of six digits.
        var runID: RunID?

        for session in 1...sessionLimit {
            let scheduler = TestScheduler(wallClock: wallClock)
            world.beginSession(on: scheduler)
            let journal: ScenarioJournal
            var afterUndo = false
            do {
                if FileManager.default.fileExists(atPath: url.path) {
                    let verdict = Self.check(url, shape: shape, sealer: sealer)
                    readsAtEnd = verdict.reads
                    do {
                        journal = try ScenarioJournal.resume(
                            at: url, expecting: shape, durability: .buffered, sealer: sealer, io: world.io)
                    } catch {
                        // The disk failed the resumed line, or the process died writing it.
                        if world.isDead || error.isIO {
                            readsAtEnd = nil
                            wallClock = Self.nextWallClock(world, scheduler, restartDelay)
                            continue
                        }
                        if verdict.offersRerun {
                            problems.append("check said the run could be resumed, and the rerun refused it: \(error)")
                        }
                        lastFailure = "\(error)"
                        break
                    }
                    if !verdict.offersRerun {
                        problems.append("check said the run \(verdict.text), and the rerun resumed it")
                    }
                    afterUndo = verdict.isUndone
                } else {
                    journal = try ScenarioJournal.create(
                        at: url, scenario: flow.scenario.name, shape: shape, input: flow.input, sealer: sealer,
                        io: world.io)
                }
            } catch {
                // The header could not be written: no run exists yet, the next process starts one.
                lastFailure = "\(error)"
                ScenarioJournal.removeWithMark(at: url)
                wallClock = Self.nextWallClock(world, scheduler, restartDelay)
                continue
            }
            readsAtEnd = nil
            runID = journal.runID
            let token = CancellationToken()
            // A process killed while it waits is torn down: its journal writes fail from now on.
            world.handle(
                interrupt: {
                    journal.noteInterruption()
                    token.cancel()
                }, killedWaiting: { token.cancel() })
            let launches = LaunchRecorder()
            let effectsBefore = world.effects
            let environment = OpEnvironment(
                scheduler: scheduler, diagnostics: diagnostics, inFlight: inFlight,
                observer: ObserverGroup([journal, launches]), replay: journal.replay, random: { 0.5 },
                makeIdempotencyKey: keys)
            var context = OpContext(flow.input, cancellation: token, environment: environment)
            if let tracer {
                context.trace = .root(tracer, caller: .caller("session \(session)"))
            }
            let end = wait(flow.scenario, context, scheduler, world)
            try? journal.close()
            // The handlers hold the journal, whose disk holds the world: let go of the cycle.
            world.handle(interrupt: nil, killedWaiting: nil)
            wallClock = Self.nextWallClock(world, scheduler, restartDelay)
            guard let result = end else {
                problems.append("session \(session) never finished: a launch was left waiting on nothing")
                break
            }
            if !inFlight.entries.isEmpty {
                let names = inFlight.entries.map(\.operation).joined(separator: ", ")
                problems.append("session \(session) finished with launches still in flight: \(names)")
            }
            if afterUndo {
                problems += Self.actsAfterUndo(session, launched: launches.steps, before: effectsBefore, world.effects)
            }
            if flow.finishedWhen(result), !world.isDead {
                let first = finishedIn ?? session
                finishedIn = first
                // A success is the end. A run that ended otherwise (failed for good, undone,
                // cancelled) is rerun while `check` offers it, a few times at most.
                guard case .failure = result, session - first < Self.confirmingReruns else { break }
            } else {
                // A rerun that followed the end and did not end so itself: the run goes on.
                finishedIn = nil
                if case .failure(let error) = result { lastFailure = "\(error)" }
            }
        }

        if finishedIn == nil && problems.isEmpty {
            problems.append(
                "the run did not finish after \(sessionLimit) sessions with the faults over: \(lastFailure)")
        }
        if finishedIn != nil, let problem = flow.finalCheck() { problems.append(problem) }
        for (effect, count) in world.effects.sorted(by: { $0.key < $1.key }) where count > 1 {
            problems.append("\(effect) acted \(count) times")
        }
        let twice = diagnostics.diagnostics.filter { $0.kind == .finishedTwice }
        if !twice.isEmpty { problems.append("\(twice.count) launch(es) finished twice") }
        if let bytes = try? Data(contentsOf: url) {
            for secret in flow.secrets where Self.holds(bytes, secret, apartFrom: runID?.description) {
                problems.append("the journal holds a secret in clear (\(Redaction.token(secret)))")
            }
            if !(readsAtEnd ?? ((try? ScenarioJournal.loadSkippingDamage(url)) != nil)) {
                problems.append("the journal no longer reads")
            }
        }
        // The scratch folder differs from run to run; the problems read the same without it.
        let named = problems.map { $0.replacingOccurrences(of: url.path, with: "the journal") }
        return (world.boundaries, named)
    }

    /// Where this process died or stopped, later by `delay` for ``Fault/restartLater``.
    private static func nextWallClock(_ world: FaultWorld, _ scheduler: TestScheduler, _ delay: Duration) -> Date {
        guard let death = world.death else { return scheduler.wallClock }
        return death.at.addingTimeInterval(death.restartsLater ? delay.inSeconds : 0)
    }

    /// Every step a session on an undone run launched, every effect it performed.
    private static func actsAfterUndo(
        _ session: Int, launched: [String], before: [String: Int], _ after: [String: Int]
    ) -> [String] {
        var problems: [String] = []
        if !launched.isEmpty {
            problems.append(
                "session \(session) launched \(launched.joined(separator: ", ")) after the run was undone")
        }
        let acted = after.filter { $0.value > before[$0.key, default: 0] }.keys.sorted()
        if !acted.isEmpty {
            problems.append("session \(session) made \(acted.joined(separator: ", ")) act after the run was undone")
        }
        return problems
    }

    /// Whether `secret` stands in `bytes` as a value of its own, not inside a longer run of
    /// letters and digits (six digits inside a timestamp are no leak), nor in the run's id
    /// `apartFrom`: an id made at 12:34:56 holds `123456` between its dashes.
    static func holds(_ bytes: Data, _ secret: String, apartFrom runID: String? = nil) -> Bool {
        let needle = Array(secret.utf8)
        var haystack = Array(bytes)
        if let runID, !runID.isEmpty {
            let id = Array(runID.utf8)
            var start = 0
            while start + id.count <= haystack.count {
                if haystack[start..<start + id.count].elementsEqual(id) {
                    haystack.replaceSubrange(
                        start..<start + id.count, with: repeatElement(UInt8(ascii: " "), count: id.count))
                    start += id.count
                } else {
                    start += 1
                }
            }
        }
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

    /// ``ResumeCheck``'s decision for `opctl check`, on the journal read as a resume reads it.
    private static func check(_ url: URL, shape: ScenarioShape, sealer: (any JournalSealer)?) -> Verdict {
        let record: JournalRecord
        do {
            record = try ScenarioJournal.loadSkippingDamage(url)
        } catch {
            return Verdict(reads: false, text: "cannot be read (\(error))")
        }
        switch ResumeCheck.check(record, against: shape, sealer: sealer).verdict {
        case .resumable, .running: return Verdict(offersRerun: true, text: "can be resumed")
        case .finished: return Verdict(text: "succeeded")
        case .undone(let steps): return Verdict(isUndone: true, text: "was undone (\(steps.joined(separator: ", ")))")
        case .stranded(let reason): return Verdict(text: "cannot be resumed: \(reason)")
        }
    }

    /// Runs the session to its end; `nil` when it waits on nothing. When the flow only waits for
    /// its clock, the world reaches a wait boundary (a death, a Ctrl-C) and the clock moves on;
    /// work on another thread wakes the driver when it schedules work or finishes the flow.
    private func wait(
        _ scenario: Scenario<Input, Output>, _ context: OpContext<Input>, _ scheduler: TestScheduler,
        _ world: FaultWorld
    ) -> Result<Output, any Error>? {
        let result = LockedState<Result<Output, any Error>?>(nil)
        let wake = DispatchSemaphore(value: 0)
        scheduler.onScheduled { wake.signal() }
        defer { scheduler.onScheduled(nil) }
        scenario.launch(context) { outcome in
            let first = result.withLock { stored -> Bool in
                guard stored == nil else { return false }
                stored = outcome
                return true
            }
            if first { wake.signal() }
        }
        while true {
            if let done = result.withLock({ $0 }) { return done }
            if let due = scheduler.nextDue {
                if due > scheduler.now {
                    world.waits()
                    // A death or Ctrl-C there tore the run down: look again before moving time.
                    if result.withLock({ $0 }) != nil || scheduler.nextDue != due { continue }
                }
                scheduler.runNext()
                continue
            }
            // Nothing on the clock: the flow's next step is on another thread, which schedules
            // work or finishes; a flow that does neither for seconds waits on nothing.
            if wake.wait(timeout: .now() + .seconds(2)) == .timedOut, result.withLock({ $0 }) == nil,
                scheduler.pendingCount == 0
            {
                return nil
            }
        }
    }
}

/// The steps a session launched: a session on an undone run must launch none.
private final class LaunchRecorder: ScenarioObserver {
    private let launched = LockedState<[String]>([])

    var steps: [String] { launched.withLock { $0 } }

    func scenario(_ event: ScenarioEvent) {
        switch event.kind {
        case .stepLaunched: launched.withLock { $0.append(event.step) }
        case .compensationStarted: launched.withLock { $0.append("the undoing of \(event.step)") }
        default: break
        }
    }
}

extension Error {
    /// Whether this is a journal's I/O error: the explorer's disk failed as its schedule says.
    fileprivate var isIO: Bool {
        if case .io? = self as? JournalError { return true }
        return false
    }
}
