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
        guard let journals = try journals() else { return [] }
        let cached = load()
        let found = journals.compactMap { journal -> RunStore.SummaryEntry? in
            if let line = cached.line(journal.name) {
                guard Codec.rerunOf(in: line) == id else { return nil }
                return checked(journal, line: line)
            }
            guard let stamp = FileStamp(path: journal.path),
                case .cacheable(let read) = Self.read(journal.url, id: journal.id, stamp: stamp),
                read.run?.rerunOf?.run == id
            else { return nil }
            return journal.entry(read)
        }
        return found.sorted { $0.id < $1.id }
    }
}
