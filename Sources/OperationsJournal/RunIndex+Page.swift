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
        let cached = load()
        guard let journals = try journals(cached) else { return RunStore.SummaryPage(runs: [], total: 0, reruns: []) }
        // The newest `limit`, oldest first, without sorting every run.
        var shown: [Journal] = []
        for journal in journals where shown.count < limit || shown.first.map({ $0.id < journal.id }) == true {
            shown.insert(journal, at: shown.firstIndex { journal.id < $0.id } ?? shown.endIndex)
            if shown.count > limit { shown.removeFirst() }
        }
        // What this listing reads: the journals the index does not know, and those shown that
        // changed since it was made.
        var read: [String: Reading] = [:]
        for journal in journals where cached.line(journal.name) == nil {
            if let stamp = FileStamp(path: journal.path) {
                read[journal.name] = self.read(journal.url, id: journal.id, stamp: stamp)
            }
        }
        var runs: [RunStore.SummaryEntry] = []
        for journal in shown.reversed() {
            if let reading = read[journal.name] {
                runs += reading.entry(of: journal).map { [$0] } ?? []
            } else if let line = cached.line(journal.name) {
                guard let stamp = FileStamp(path: journal.path) else { continue }
                if Codec.stamp(in: line) == stamp, let entry = Codec.entry(in: line) {
                    runs.append(journal.entry(entry))
                    continue
                }
                let reading = self.read(journal.url, id: journal.id, stamp: stamp)
                read[journal.name] = reading
                runs += reading.entry(of: journal).map { [$0] } ?? []
            }
        }
        if !read.isEmpty || cached.count != journals.count {
            var saved = Codec.Body()
            for journal in journals {
                if let reading = read[journal.name] {
                    if case .cacheable(let entry) = reading { saved.append(name: journal.name, entry) }
                } else if let line = cached.line(journal.name) {
                    saved.append(line: line)
                }
            }
            try? save(saved)
        }
        // The runs made from those shown: their origin is in their header, which never changes.
        let ids = Set(runs.map(\.id))
        let base = base
        var reruns = cached.names { Codec.rerunOf(in: $0).map(ids.contains) == true }.compactMap { name in
            journal(named: name, base: base).flatMap { journal in
                cached.line(name).flatMap { checked(journal, line: $0) }
            }
        }
        for (name, reading) in read {
            guard let journal = journal(named: name, base: base), let entry = reading.entry(of: journal),
                case .success(let summary) = entry.summary, let origin = summary.rerunOf?.run, ids.contains(origin)
            else { continue }
            reruns.append(entry)
        }
        return RunStore.SummaryPage(runs: runs, total: journals.count, reruns: reruns.sorted { $0.id < $1.id })
    }
}
