import Foundation
import Operations

extension RunIndex {
    /// The runs made from `id` by `rerun ID --from STEP`, oldest first, found without a summary
    /// of every run: what `show ID` needs of the store beside the run itself.
    ///
    /// The run a journal was made from is in its header, written once when the journal is
    /// created; later lines never change it. So a journal the index knows is a rerun of `id`
    /// only if its line says so, whatever was appended since, and only those are looked at
    /// (stamped, and read again when their stamp changed, as a listing would). A journal the
    /// index does not know yet is read. Nothing is written: the next listing brings the index
    /// up to date.
    ///
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory exists but cannot
    ///   be listed.
    func reruns(of id: RunID) throws(JournalError) -> [RunStore.SummaryEntry] {
        let cached = load()
        guard let journals = try journals(cached) else { return [] }
        let base = base
        var found = cached.names { Codec.rerunOf(in: $0) == id }.compactMap { name in
            journal(named: name, base: base).flatMap { journal in
                cached.line(name).flatMap { checked(journal, line: $0) }
            }
        }
        for journal in journals where cached.line(journal.name) == nil {
            guard let stamp = FileStamp(path: journal.path),
                case .cacheable(let read) = read(journal.url, id: journal.id, stamp: stamp),
                read.run?.rerunOf?.run == id
            else { continue }
            found.append(journal.entry(read))
        }
        return found.sorted { $0.id < $1.id }
    }
}
