import Foundation
import Operations

extension RunIndex {
    /// The runs made from `id` by `rerun ID --from STEP`, oldest first, found without a summary
    /// of every run: what `show ID` needs of the store beside the run itself.
    ///
    /// The run a journal was made from is in its header, written once when the journal is
    /// created; later lines never change it. So a journal the index knows is a rerun of `id`
    /// only if its entry says so, whatever was appended since, and only those are looked at
    /// (stamped, and read again when their stamp changed, as a listing would). A journal the
    /// index does not know yet is read. Nothing is written: the next listing brings the index
    /// up to date.
    ///
    /// - Throws: ``JournalError/io(_:operation:reason:)`` when the directory exists but cannot
    ///   be listed.
    func reruns(of id: RunID) throws(JournalError) -> [RunStore.SummaryEntry] {
        guard let names = try JournalFile.names(in: directory) else { return [] }
        let cached = load()
        let suffix = ".\(RunStore.fileExtension)"
        let base = directory.path.hasSuffix("/") ? directory.path : directory.path + "/"
        var found: [RunStore.SummaryEntry] = []
        for name in names where name.hasSuffix(suffix) {
            let entry = cached[name]
            if let entry, entry.run?.rerunOf?.run != id { continue }
            guard let runID = try? RunID(validating: String(name.dropLast(suffix.count))) else { continue }
            let path = base + name
            guard let stamp = FileStamp(path: path) else { continue }
            let url = { directory.appendingPathComponent(name, isDirectory: false) }
            if let entry, entry.stamp == stamp {
                found.append(RunStore.SummaryEntry(id: runID, entry, path: path, url: url))
                continue
            }
            guard case .cacheable(let read) = Self.read(url(), id: runID, stamp: stamp), read.run?.rerunOf?.run == id
            else { continue }
            found.append(RunStore.SummaryEntry(id: runID, read, path: path, url: url))
        }
        return found.sorted { $0.id < $1.id }
    }
}
