import Foundation
import Operations
import OperationsJournal

/// What `prune` removed and kept, and how it says so.
struct PruneOutcome {
    let request: PruneRequest
    /// The runs removed (or, in a dry run, that would be).
    var removed: [RunSummary] = []
    /// Old interrupted runs kept because `--include-interrupted` was not given.
    var interrupted = 0
    /// Old runs kept because a live process was writing them.
    var running = 0
    /// Journals kept because they cannot be read (their age is unknown).
    var damaged = 0
    /// Files that could not be removed, in words.
    var failures: [String] = []
    /// Drafts of runs whose creation a killed process never finished, removed with the runs.
    var abandonedDrafts = 0

    /// Counts what the listing shows prune will keep.
    mutating func count(_ entries: [RunStore.SummaryEntry]) {
        for entry in entries {
            guard case .success(let run) = entry.summary else {
                damaged += 1
                continue
            }
            guard run.lastActivityAt < request.cutoff else { continue }
            if run.status == .running {
                running += 1
            } else if run.status == .interrupted, !request.includeInterrupted, !request.statusGiven {
                interrupted += 1
            }
        }
    }

    /// One sentence: `removed 12 runs (3 failed, 9 succeeded), kept 4 interrupted runs; use
    /// --include-interrupted to remove them`.
    var sentence: String {
        var text: String
        if removed.isEmpty {
            // "cancelled, failed or succeeded": the statuses are alternatives, not a list to match.
            let statuses = request.statuses.map(\.rawValue).sorted()
            let which =
                statuses.count > 1
                ? statuses.dropLast().joined(separator: ", ") + " or " + (statuses.last ?? "") : statuses.joined()
            text = "nothing to remove: no \(which) run was last active before \(RunTimestamp.text(request.cutoff))"
        } else {
            let byStatus = Dictionary(grouping: removed, by: { ListedStatus($0.status) })
            let breakdown = byStatus.keys.sorted().map { status in
                "\(CountText.grouped(byStatus[status]?.count ?? 0)) \(status.rawValue)"
            }
            let verb = request.dryRun ? "would remove" : "removed"
            text = "\(verb) \(CountText.runs(removed.count)) (\(breakdown.joined(separator: ", ")))"
        }
        var kept: [String] = []
        if interrupted > 0 { kept.append(CountText.runs(interrupted, "interrupted")) }
        if running > 0 { kept.append(CountText.runs(running, "running")) }
        if damaged > 0 { kept.append("\(CountText.grouped(damaged)) damaged \(damaged == 1 ? "journal" : "journals")") }
        if !kept.isEmpty {
            let list =
                kept.dropLast().isEmpty
                ? kept[0] : kept.dropLast().joined(separator: ", ") + " and " + kept[kept.count - 1]
            text += (removed.isEmpty ? "; kept " : ", kept ") + list
        }
        if interrupted > 0 {
            text += "; use --include-interrupted to remove \(kept.count == 1 ? "them" : "the interrupted ones")"
        }
        if abandonedDrafts > 0 {
            text +=
                "; also removed \(CountText.grouped(abandonedDrafts)) abandoned "
                + "\(abandonedDrafts == 1 ? "draft" : "drafts") of runs never created"
        }
        return text
    }

    var jsonObject: [String: Any] {
        [
            "dryRun": request.dryRun,
            "olderThan": RunTimestamp.text(request.cutoff),
            "removed": removed.reversed().map { run -> [String: Any] in
                [
                    "id": run.id.description, "scenario": run.scenario, "status": run.status.rawValue,
                    "lastActivityAt": RunTimestamp.text(run.lastActivityAt),
                ]
            },
            "kept": ["interrupted": interrupted, "running": running, "damaged": damaged],
            "abandonedDrafts": abandonedDrafts,
        ]
    }
}
