import Foundation
import Operations
import OperationsJournal

/// The array `runs --json` prints, encoded with `JSONEncoder`: sorted keys, `failedStep` null when there is none, `finishedAt` left out
/// when the run has not finished.
enum RunListingJSON {
    /// One run object.
    struct Run: Encodable {
        let id: String
        let scenario: String
        let status: String
        let failedStep: String?
        /// The step a live run is at; left out for a run that is not running.
        let currentStep: String?
        /// Since when, and for how long, a live run has been at ``currentStep``: what `show
        /// --json` says (``RunHistory/current``); left out for a run that is not running.
        var currentStepSince: String?
        var currentStepMilliseconds: Int?
        let startedAt: String
        let finishedAt: String?
        /// The run and step it was rerun from; left out for other runs.
        var rerunOf: [String: String]?
        /// The runs made from it by `rerun --from`; left out when there are none.
        var reruns: [[String: String]]?
        /// The command that goes on with the run (``RunHint/rerun``); left out when a rerun
        /// cannot help, and for runs that succeeded or are running.
        var rerun: String?
        /// The way on as `show` prints it (``RunHint/line``); left out for runs that succeeded
        /// or are running.
        var hint: String?

        /// The object of a readable run, with the runs made from it (`rerun --from`).
        ///
        /// - Parameters:
        ///   - summary: The run.
        ///   - id: Its id (its file name).
        ///   - reruns: The runs made from it, oldest first.
        ///   - hint: How to go on with it, for a run that did not succeed.
        ///   - current: Where a live run is, from its history.
        init(
            _ summary: RunSummary, id: RunID, reruns: [RunSummary], hint: RunHint? = nil,
            current: RunHistory.Current? = nil
        ) {
            self.id = id.description
            scenario = summary.scenario
            status = summary.status.rawValue
            // A live run has not failed: the step it is at is its current step, not a failed one.
            let isRunning = summary.status == .running
            failedStep = isRunning ? nil : summary.failedStep?.name
            currentStep = isRunning ? (current?.step.name ?? summary.failedStep?.name) : nil
            if isRunning, let current {
                currentStepSince = RunTimestamp.text(current.since)
                currentStepMilliseconds = Int(current.elapsed.inMilliseconds.rounded(.down))
            }
            startedAt = RunTimestamp.text(summary.startedAt ?? summary.createdAt)
            finishedAt = summary.finishedAt.map(RunTimestamp.text)
            rerunOf = summary.rerunOf.map { ["run": $0.run.description, "step": $0.step.namePath] }
            let made = reruns.compactMap { rerun in
                rerun.rerunOf.map { ["run": rerun.id.description, "step": $0.step.namePath] }
            }
            self.reruns = made.isEmpty ? nil : made
            rerun = hint?.rerun
            self.hint = hint?.line
        }

        /// Encodes the keys in their promised form: `failedStep` null, `finishedAt` left out.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(scenario, forKey: .scenario)
            try container.encode(status, forKey: .status)
            try container.encode(failedStep, forKey: .failedStep)
            try container.encodeIfPresent(currentStep, forKey: .currentStep)
            try container.encodeIfPresent(currentStepSince, forKey: .currentStepSince)
            try container.encodeIfPresent(currentStepMilliseconds, forKey: .currentStepMilliseconds)
            try container.encode(startedAt, forKey: .startedAt)
            try container.encodeIfPresent(finishedAt, forKey: .finishedAt)
            try container.encodeIfPresent(rerunOf, forKey: .rerunOf)
            try container.encodeIfPresent(reruns, forKey: .reruns)
            try container.encodeIfPresent(rerun, forKey: .rerun)
            try container.encodeIfPresent(hint, forKey: .hint)
        }

        private enum CodingKeys: String, CodingKey {
            case id, scenario, status, failedStep, currentStep, currentStepSince, currentStepMilliseconds
            case startedAt, finishedAt, rerunOf, reruns, rerun, hint
        }
    }

    /// The array's text.
    static func encode(_ runs: [Run]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(runs) else { return "[]" }
        return String(decoding: data, as: UTF8.self)
    }
}
