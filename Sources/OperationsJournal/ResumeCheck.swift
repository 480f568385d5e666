public import Operations

/// Whether this build could resume the runs a store holds, checked without launching or writing
/// anything: what a team runs in its tests and CI before shipping a change to a scenario, so
/// that the runs waiting in the field are not stranded (Temporal's replayer plays this part).
///
/// ```swift
/// let checks = try RunStore(stateDirectory: fixtures).checkResumable(by: [checkout.shape])
/// #expect(checks.filter(\.isStranded).isEmpty, "\(checks.filter(\.isStranded))")
/// ```
public struct ResumeCheck: Sendable, CustomStringConvertible {
    /// What this build can do with one run.
    public enum Verdict: Sendable, Hashable {
        /// The run can be resumed by this build.
        case resumable
        /// The run succeeded: there is nothing to resume.
        case finished
        /// The run failed for good and undid its finished steps (named, in the order they were
        /// undone): there is nothing to resume, and a resume is refused
        /// (``JournalError/alreadyUndone(_:undone:)``).
        case undone([String])
        /// A live process is writing the run; it was checked all the same.
        case running
        /// This build cannot resume the run, for the reason given (a sentence).
        case stranded(String)
    }

    /// The run.
    public let id: RunID
    /// The scenario the journal names; `nil` when the journal cannot be read.
    public let scenario: String?
    /// How the run stands; `nil` when the journal cannot be read.
    public let status: RunStatus?
    /// What this build can do with it.
    public let verdict: Verdict

    /// Whether this build cannot resume a run that is waiting to be resumed (or unreadable).
    public var isStranded: Bool {
        if case .stranded = verdict { return true }
        return false
    }

    /// One line: the run, its scenario and status, and the verdict.
    public var description: String {
        let what = "\(id) (\(scenario ?? "?"), \(status?.rawValue ?? "damaged"))"
        switch verdict {
        case .resumable: return "\(what): can be resumed"
        case .finished: return "\(what): finished"
        case .undone(let steps): return "\(what): undone (\(steps.joined(separator: ", "))), nothing to resume"
        case .running: return "\(what): running"
        case .stranded(let reason): return "\(what): cannot be resumed: \(reason)"
        }
    }

    /// The verdict on one journaled run for a build that has `shapes`: the decision a resume
    /// takes (``JournalRecord/checkResumable(by:relaunchingInDoubt:sealer:)``), on the journal
    /// read as a resume reads it, so a run called resumable here is resumed, and one called
    /// stranded is refused by the resume with the same reason (``reason(for:)``).
    ///
    /// - Parameters:
    ///   - entry: The run, read as a resume reads it (``RunStore/checkResumable(by:)`` does);
    ///     an entry from a plain listing whose only fault is a damaged line is read again so.
    ///   - shapes: The shapes of the scenarios this build can resume, by their names.
    ///   - sealer: The sealer this build resumes runs with: a run whose sealed values it cannot
    ///     open (sealed with another key) would fail on resume, so it is stranded. `nil` checks
    ///     no sealed value: a resume without a sealer launches their steps again.
    public static func check(
        _ entry: RunStore.Entry, against shapes: [String: ScenarioShape], sealer: (any JournalSealer)? = nil
    ) -> ResumeCheck {
        let record: JournalRecord
        switch entry.record {
        case .success(let read): record = read
        case .failure(let error):
            guard case .damaged(let url, let line, _) = error, line > 1,
                let intact = try? ScenarioJournal.loadSkippingDamage(url)
            else {
                return ResumeCheck(id: entry.id, scenario: nil, status: nil, verdict: .stranded(reason(for: error)))
            }
            record = intact
        }
        func check(_ verdict: Verdict) -> ResumeCheck {
            ResumeCheck(id: entry.id, scenario: record.scenario, status: record.status, verdict: verdict)
        }
        if record.status == .succeeded { return check(.finished) }
        if record.isUndone { return check(.undone(record.undoneSteps.map(\.name))) }
        guard let shape = shapes[record.scenario] else {
            return check(.stranded(reason(forUnknownScenario: record.scenario)))
        }
        do throws(JournalError) {
            try record.checkResumable(by: shape, sealer: sealer)
        } catch {
            return check(.stranded(reason(for: error)))
        }
        if let sealer, let step = record.firstValueNotOpening(with: sealer) {
            let place = step.path.isEmpty ? "the run's input" : "the output of step \(step)"
            return check(.stranded("\(place) was sealed with a key this build's sealer does not have"))
        }
        return check(record.status == .running ? .running : .resumable)
    }

    /// Why a run of a scenario this build does not have cannot be resumed, in the sentence both
    /// `check` and a refused resume print.
    public static func reason(forUnknownScenario scenario: String) -> String {
        "this build has no scenario named \(scenario)"
    }

    /// Why a run cannot be resumed, in the sentence both `check` and a refused resume print:
    /// the cause without the journal's path, which each names by its run id.
    ///
    /// - Parameter error: Why the resume was refused, or the journal could not be read.
    public static func reason(for error: JournalError) -> String {
        switch error {
        case .missingShape: "the journal records no shape, so no build can check it against its own"
        case .shapeMismatch(_, let mismatch): mismatch.description
        case .resumeRefused(_, let refusal): refusal.description
        case .linesLost(_, let loss):
            "its journal has lost lines: \(loss); a rerun could repeat what they recorded, so none goes past them"
        default: "its journal cannot be read: \(error)"
        }
    }
}

extension RunStore {
    /// Checks every run in the store against the scenarios this build has, and their sealed
    /// values against the store's ``sealer``, in the store's order (oldest first); nothing is
    /// launched or written. A run the listing knows to be over — succeeded, or undone — is
    /// judged from the store's index; every other journal is read as a resume reads it, damaged
    /// lines skipped and listed, judged as a resume judges it, and let go before the next.
    ///
    /// - Parameter shapes: The shapes of the scenarios this build can resume; a journal finds
    ///   its scenario by the name in its header (`ScenarioShape/name`).
    /// - Returns: One check per journal file.
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory cannot be listed.
    public func checkResumable(by shapes: [ScenarioShape]) throws(JournalError) -> [ResumeCheck] {
        var checks: [ResumeCheck] = []
        try checkResumable(by: shapes) { checks.append($0) }
        return checks
    }

    /// Checks every run as ``checkResumable(by:)`` does, handing each check to `visit` as it is
    /// made and holding none: what a check of tens of thousands of runs uses.
    ///
    /// - Parameters:
    ///   - shapes: As for ``checkResumable(by:)``.
    ///   - visit: Takes each check in turn, oldest run first.
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory cannot be listed.
    public func checkResumable(by shapes: [ScenarioShape], _ visit: (ResumeCheck) -> Void) throws(JournalError) {
        let byName = Dictionary(shapes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        try forEachSummary { entry in
            if case .success(let summary) = entry.summary {
                if summary.status == .succeeded {
                    return visit(
                        ResumeCheck(
                            id: entry.id, scenario: summary.scenario, status: summary.status, verdict: .finished))
                }
                if summary.status == .failed, let undone = entry.undone {
                    return visit(
                        ResumeCheck(
                            id: entry.id, scenario: summary.scenario, status: summary.status, verdict: .undone(undone)))
                }
            }
            let record: Result<JournalRecord, JournalError>
            do throws(JournalError) {
                record = .success(try ScenarioJournal.loadSkippingDamage(url(for: entry.id)))
            } catch {
                record = .failure(error)
            }
            visit(ResumeCheck.check(Entry(id: entry.id, record: record), against: byName, sealer: sealer))
        }
    }
}

extension JournalRecord {
    /// The first value a resume would open that does not open with `sealer`: the run's input
    /// (an empty address) or the output of a step that would be replayed.
    func firstValueNotOpening(with sealer: any JournalSealer) -> StepAddress? {
        if let input, !input.opens(with: sealer) { return StepAddress(path: []) }
        for step in steps where step.purity != .idempotent {
            if let output = step.output, !output.opens(with: sealer) { return step.address }
        }
        return nil
    }
}

extension ResumeCheck {
    /// The verdict on a journal already read as a resume reads it
    /// (``ScenarioJournal/loadSkippingDamage(_:)``), for a build with one scenario: what `check`
    /// says of that run, for the fault explorer to hold against what its rerun does.
    ///
    /// - Returns: The check, as ``check(_:against:sealer:)`` gives it for the run's entry.
    package static func check(
        _ record: JournalRecord, against shape: ScenarioShape, sealer: (any JournalSealer)?
    ) -> ResumeCheck {
        check(RunStore.Entry(id: record.runID, record: .success(record)), against: [shape.name: shape], sealer: sealer)
    }
}
