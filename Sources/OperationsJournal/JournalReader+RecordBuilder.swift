import Foundation
import Operations

extension JournalReader {
    /// Folds a journal's events, in order, into a ``JournalRecord``.
    ///
    /// Replay needs one rule: a step is replayed when its *latest* attempt succeeded. A launch
    /// therefore forgets the step's earlier output, and a replay (which launches nothing) keeps
    /// it, so a run resumed several times still replays what its first process completed.
    struct RecordBuilder {
        private let header: Header
        private var session = 1
        private var steps: [StepRecord] = []
        private var stepIndex: [StepAddress: Int] = [:]
        private var input: RecordedValue?
        private var startedAt: Date?
        /// The end of the current session's run, if it was recorded.
        private var finished: Finish?
        /// Steps launched in the current session and not finished, with their attempt's index.
        private var inFlight: [StepAddress: Int] = [:]
        /// The innermost step of the latest chain of final failures (a nested step fails, then
        /// the scenario step that contains it), or `nil` once anything else happened.
        private var failureOrigin: StepAddress?
        /// The steps whose failure for good started an undoing, with their error: a rerun fails
        /// them again and goes on undoing (``JournalReplay``).
        private var compensating: [StepAddress: RecordedError] = [:]
        /// Whether the current session is undoing: the failures of compensations do not move
        /// ``failureOrigin`` off the step that failed.
        private var undoing = false
        private var lastWasFinalFailure = false
        /// The header's shape, or the latest a `resumed` line recorded (a compatible change).
        private var shape: ScenarioShape?
        /// The step of each scenario (by the scenario's address) that a line mentioned last, for
        /// a `compensating` line that names the scenario rather than its failed step.
        private var latestChild: [StepAddress: StepAddress] = [:]
        /// Where each polled step's polling stood (``JournalRecord/pollProgress``).
        private var polling: [StepAddress: PollProgress] = [:]
        /// The events the run's scenarios handled (``JournalRecord/handledEvents``).
        private var handledEvents: [HandledEventRecord] = []

        private struct Finish {
            let status: RunStatus
            let error: RecordedError?
            let output: RecordedValue?
            let at: Date
        }

        init(header: Header) {
            self.header = header
            self.shape = header.shape
            self.input = header.input
        }

        /// Folds one event in.
        ///
        /// - Parameter values: The input and output the line records, read only for an event
        ///   that carries values (``JournalFormat/Event/carriesValues``).
        mutating func apply(
            _ kind: JournalFormat.Event, _ line: JournalFormat.EventLine,
            values: (input: RecordedValue?, output: RecordedValue?)
        ) throws(Inconsistency) {
            let at = JournalReader.date(line.at)
            if kind != .compensating, kind != .eventHandled, let address = line.address, !address.path.isEmpty,
                !address.isCompensation
            {
                latestChild[StepAddress(path: Array(address.path.dropLast()))] = address
            }
            let finalFailure = kind == .stepFailed && line.willRetry != true
            defer { lastWasFinalFailure = finalFailure }
            switch kind {
            case .runStarted:
                if startedAt == nil {
                    startedAt = at
                    input = values.input ?? input
                }
            case .resumed:
                if let reshaped = line.shape {
                    guard line.fingerprint == reshaped.fingerprint else {
                        throw Inconsistency(
                            text:
                                "the resumed line's fingerprint \(line.fingerprint ?? "(none)") does not match its shape's \(reshaped.fingerprint)"
                        )
                    }
                    shape = reshaped
                }
                interruptInFlight()
                session = line.session ?? session + 1
                finished = nil
                failureOrigin = nil
                undoing = false
            case .stepLaunched:
                let address = try require(line.address, "address")
                let attempt = try require(line.attempt, "attempt")
                if attempt == 1, let progress = polling[address], progress.nextPoll != nil {
                    // The poll the run waited for was made: it counts, and the wait is over.
                    polling[address] = PollProgress(began: progress.began, polls: progress.polls + 1, nextPoll: nil)
                }
                let index = stepPosition(address, outcome: .running)
                steps[index].attempts.append(
                    AttemptRecord(
                        session: session, attempt: attempt, launchedAt: at, outcome: .running,
                        idempotencyKey: line.idempotencyKey))
                steps[index].outcome = .running
                if let purity = line.purity { steps[index].purity = purity }
                steps[index].output = nil
                inFlight[address] = steps[index].attempts.count - 1
                let launched = values.input
                if attempt == 1, steps[index].launchInputs?.latest != launched {
                    // A start from a value other than where the step last stood: a new start.
                    steps[index].launchInputs = JournalRecord.LaunchInputs(started: launched, latest: launched)
                } else if steps[index].launchInputs == nil {
                    steps[index].launchInputs = JournalRecord.LaunchInputs(started: nil, latest: launched)
                } else {
                    // A retry or relaunch, or a resumed session continuing where the last stood.
                    steps[index].launchInputs?.latest = launched
                }
            case .stepSucceeded:
                let address = try require(line.address, "address")
                let index = stepPosition(address, outcome: .succeeded)
                finishAttempt(address, index: index, outcome: .succeeded, durationMs: line.durationMs)
                steps[index].outcome = .succeeded
                steps[index].output = values.output ?? .notRecorded("the journal has no output for this step")
            case .stepFailed:
                let address = try require(line.address, "address")
                let error = try require(line.error, "error")
                let willRetry = line.willRetry ?? false
                let index = stepPosition(address, outcome: .failed)
                finishAttempt(
                    address, index: index, outcome: .failed(error, willRetry: willRetry), durationMs: line.durationMs)
                steps[index].outcome = willRetry ? .running : (error.isCancellation ? .cancelled : .failed)
                if !willRetry && !lastWasFinalFailure && !undoing { failureOrigin = address }
            case .stepSkipped:
                let index = stepPosition(try require(line.address, "address"), outcome: .skipped)
                steps[index].outcome = .skipped
            case .stepReplayed:
                let index = stepPosition(try require(line.address, "address"), outcome: .replayed)
                steps[index].outcome = .replayed
                steps[index].replayedInSessions.append(session)
            case .compensating:
                let address = failedStep(undoneAt: try require(line.address, "address"))
                compensating[address] = try require(line.error, "error")
                if let progress = polling[address] {
                    // Failed for good: no poll is due any more, and a rerun fails it again.
                    polling[address] = PollProgress(began: progress.began, polls: progress.polls, nextPoll: nil)
                }
                failureOrigin = address
                undoing = true
            case .polling:
                let address = try require(line.address, "address")
                let began = JournalReader.date(try require(line.began, "began"))
                let next = line.nextPollAt.map { at in
                    WaitDeadline(until: JournalReader.date(at), seconds: line.waitSeconds ?? 0)
                }
                polling[address] = PollProgress(began: began, polls: try require(line.polls, "polls"), nextPoll: next)
            case .eventHandled:
                handledEvents.append(
                    HandledEventRecord(
                        session: session, at: at, scenario: line.address ?? StepAddress(path: []),
                        event: try require(line.handled, "handled")))
            case .runFinished:
                let text = try require(line.status, "status")
                guard let status = RunStatus(rawValue: text), status != .running else {
                    throw Inconsistency(text: "\"\(text)\" is not how a run finishes")
                }
                finished = Finish(status: status, error: line.error, output: values.output, at: at)
            }
        }

        /// The record of the events folded in; the builder is left empty, so that the steps are
        /// not held twice while the last ones in flight are marked.
        mutating func finish(
            url: URL, isBeingWritten: Bool, ignoredTornLine: Bool, intactLength: Int, lineCount: Int,
            lastLineSum: UInt32?, damagedLines: [JournalRecord.DamagedLine]
        ) -> JournalRecord {
            let status = finished?.status ?? (isBeingWritten ? .running : .interrupted)
            // Read while the steps still say which ran when the journal ended.
            let failedStep: StepAddress? =
                switch status {
                case .succeeded: nil
                case .failed, .cancelled: failureOrigin ?? deepestInFlight
                case .interrupted, .running: deepestInFlight ?? failureOrigin
                }
            var steps = self.steps
            self.steps = []
            if status != .running {
                // Whatever the last session left in flight will not finish any more.
                for index in steps.indices where steps[index].outcome == .running {
                    steps[index].outcome = status == .cancelled ? .cancelled : .interrupted
                    for attempt in steps[index].attempts.indices
                    where steps[index].attempts[attempt].outcome == .running {
                        steps[index].attempts[attempt].outcome = .interrupted
                    }
                }
            }
            return JournalRecord(
                url: url, runID: header.runID, scenario: header.scenario, createdAt: header.createdAt,
                startedAt: startedAt, finishedAt: finished?.at, status: status, failedStep: failedStep,
                error: finished?.error, steps: steps, sessions: session, ignoredTornLine: ignoredTornLine,
                damagedLines: damagedLines, input: input, output: finished?.output, stepIndex: stepIndex,
                compensating: compensating, pollProgress: polling,
                intactLength: intactLength, lineCount: lineCount, lastLineSum: lastLineSum,
                shape: shape, settings: header.settings, rerunOf: header.rerunOf, handledEvents: handledEvents)
        }

        // MARK: - Internals

        /// The step a `compensating` line at `address` stands for. A journal names the step whose
        /// failure started the undoing, but one written by a build that did not note every way a
        /// step fails (a polled step out of polls) names the scenario instead: then the step of
        /// that scenario the journal mentioned last is the one that failed, and a rerun must fail
        /// it again rather than launch it past the undoing.
        private func failedStep(undoneAt address: StepAddress) -> StepAddress {
            if let index = stepIndex[address], steps[index].outcome == .failed { return address }
            return latestChild[address] ?? address
        }

        /// The innermost step the session left running: an attempt in flight, or a step waiting
        /// to retry (its attempt failed, its next not launched), which every view calls running.
        private var deepestInFlight: StepAddress? {
            steps.lazy.filter { $0.outcome == .running }.map(\.address)
                .max { ($0.path.count, $0.description) < ($1.path.count, $1.description) }
        }

        private mutating func stepPosition(_ address: StepAddress, outcome: StepRecord.Outcome) -> Int {
            if let index = stepIndex[address] { return index }
            steps.append(StepRecord(address: address, attempts: [], outcome: outcome))
            stepIndex[address] = steps.count - 1
            return steps.count - 1
        }

        private mutating func finishAttempt(
            _ address: StepAddress, index: Int, outcome: AttemptRecord.Outcome, durationMs: Double?
        ) {
            // A failure handler's recovery reports a success for an attempt that already
            // failed; only an attempt still in flight takes the outcome.
            guard let attemptIndex = inFlight.removeValue(forKey: address) else { return }
            steps[index].attempts[attemptIndex].outcome = outcome
            steps[index].attempts[attemptIndex].duration = durationMs.map {
                .microseconds(Int64(($0 * 1000).rounded()))
            }
        }

        private mutating func interruptInFlight() {
            for (address, attemptIndex) in inFlight {
                guard let index = stepIndex[address] else { continue }
                steps[index].attempts[attemptIndex].outcome = .interrupted
                if steps[index].outcome == .running { steps[index].outcome = .interrupted }
            }
            for index in steps.indices where steps[index].outcome == .running {
                steps[index].outcome = .interrupted
            }
            inFlight = [:]
        }

        private func require<T>(_ value: T?, _ field: String) throws(Inconsistency) -> T {
            guard let value else { throw Inconsistency(text: "the field \"\(field)\" is missing") }
            return value
        }
    }
}
