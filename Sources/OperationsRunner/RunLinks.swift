import Foundation
import Operations
import OperationsJournal

/// The links `rerun ID --from STEP` makes between runs, read both ways without writing the old
/// run's journal: a new run's header names where it came from (``RunSummary/rerunOf``), and the
/// runs made from a run are those whose origin names it, found in the run index.
struct RunLinks {
    /// Each run's reruns, by the id of the run they were made from, oldest first.
    let reruns: [RunID: [RunSummary]]

    /// The links among `entries`.
    init(_ entries: [RunStore.SummaryEntry]) {
        var reruns: [RunID: [RunSummary]] = [:]
        for entry in entries {
            guard case .success(let summary) = entry.summary, let origin = summary.rerunOf else { continue }
            reruns[origin.run, default: []].append(summary)
        }
        self.reruns = reruns
    }

    /// The runs made from `id` in `store` (``RunStore/reruns(of:)``), without listing every run;
    /// none when the store cannot be listed (the run itself was read, so `show` goes on
    /// without them).
    init(madeFrom id: RunID, in store: RunStore) {
        self.init((try? store.reruns(of: id)) ?? [])
    }

    /// `rerun of ID from STEP`, as `runs` and `show` say where a run came from.
    static func text(_ origin: RerunOrigin) -> String { "rerun of \(origin.run) from \(origin.step.namePath)" }

    /// `{"run": ID, "step": "VerificationScenario/CodeOp"}`, as `show --json` and `runs --json`
    /// print one link.
    static func object(run: RunID, step: StepAddress) -> [String: String] {
        ["run": run.description, "step": step.namePath]
    }

    /// The runs made from `id`, as `show --json` prints them.
    func objects(of id: RunID) -> [[String: String]] {
        (reruns[id] ?? []).compactMap { summary in
            summary.rerunOf.map { Self.object(run: summary.id, step: $0.step) }
        }
    }

    /// `rerun as ID from STEP, …` for a run with reruns; `nil` otherwise.
    func text(of id: RunID) -> String? {
        guard let made = reruns[id], !made.isEmpty else { return nil }
        return "rerun as "
            + made.compactMap { summary in summary.rerunOf.map { "\(summary.id) from \($0.step.namePath)" } }
            .joined(separator: ", ")
    }
}
