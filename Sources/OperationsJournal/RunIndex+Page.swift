import Foundation
import Operations

extension RunIndex {
    /// The newest `limit` runs, newest first, and how many runs the directory holds, for a
    /// listing that shows a page: only the runs shown are checked against their journals.
    ///
    /// A run not shown is only counted, so its entry is neither checked nor needed; journals
    /// the index does not know yet are read (and cached), since a rerun of a run shown could
    /// be among them. The runs made from the runs shown are found as ``reruns(of:)`` finds them.
    func newest(_ limit: Int) throws(JournalError) -> RunStore.SummaryPage {
        guard let journals = try journals()?.sorted(by: { $0.id < $1.id }) else {
            return RunStore.SummaryPage(runs: [], total: 0, reruns: [])
        }
        let cached = load()
        let shown = journals.suffix(limit)
        var saved = Codec.Body()
        // The entries made in this listing, by name: those shown, and those read for the first time.
        var listed: [String: RunStore.SummaryEntry] = [:]
        var changed = false
        for journal in journals.dropLast(shown.count) {
            if let line = cached.line(journal.name) {
                saved.append(line: line)
            } else if let stamp = FileStamp(path: journal.path) {
                changed = true
                listed[journal.name] = read(journal, stamp: stamp, into: &saved)
            }
        }
        for journal in shown {
            guard let stamp = FileStamp(path: journal.path) else { continue }
            if let line = cached.line(journal.name), Codec.stamp(in: line) == stamp,
                let entry = Codec.entry(in: line)
            {
                saved.append(line: line)
                listed[journal.name] = journal.entry(entry)
                continue
            }
            changed = true
            listed[journal.name] = read(journal, stamp: stamp, into: &saved)
        }
        if changed || saved.count != cached.count { try? save(saved) }
        let runs = shown.compactMap { listed[$0.name] }
        let ids = Set(runs.map(\.id))
        let reruns = journals.compactMap { journal -> RunStore.SummaryEntry? in
            if let entry = listed[journal.name] {
                guard case .success(let summary) = entry.summary, let origin = summary.rerunOf?.run else { return nil }
                return ids.contains(origin) ? entry : nil
            }
            guard let line = cached.line(journal.name), let origin = Codec.rerunOf(in: line), ids.contains(origin)
            else { return nil }
            return checked(journal, line: line)
        }
        return RunStore.SummaryPage(runs: runs.reversed(), total: journals.count, reruns: reruns)
    }
}
