import Foundation
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension JournalFile {
    /// A journal being made under a hidden temporary name, so the file never exists under its
    /// run's name without its header: a process killed while creating a run leaves at most a
    /// hidden temporary (`.drafts/.<id>.jsonl.<random>.tmp` beside the journals), never an
    /// empty journal listed as damaged forever. The draft holds the run's input (a phone
    /// number), so opening the store removes the ones a killed process left (``DraftFile``);
    /// in a folder of their own, so that doing so lists the drafts and not every run.
    typealias Draft = DraftFile.Handle

    static func draftFolder(in directory: URL) -> URL {
        directory.appendingPathComponent(".drafts", isDirectory: true)
    }

    /// Creates the temporary of a journal to be published as `url`, in ``draftFolder(in:)``:
    /// mode 0600, exclusive, with the writer's lock already held (the lock belongs to the file,
    /// and stays with it).
    static func createDraft(of url: URL) throws(JournalError) -> Draft {
        let folder = draftFolder(in: url.deletingLastPathComponent())
        try makeDirectory(folder)
        do {
            return try DraftFile.create(of: url, in: folder)
        } catch {
            throw .io(url, operation: "create", reason: error.reason)
        }
    }

    /// Gives the draft its final name with `link`, which fails rather than replace a file that
    /// exists, then removes the temporary name.
    ///
    /// - Returns: `false` when a journal of that name already exists (the draft is left to the
    ///   caller to discard).
    static func publish(_ draft: Draft, as url: URL) throws(JournalError) -> Bool {
        let linked = draft.url.withUnsafeFileSystemRepresentation { from in
            url.withUnsafeFileSystemRepresentation { to in
                guard let from, let to else { return Int32(-1) }
                return link(from, to)
            }
        }
        if linked != 0 {
            if errno == EEXIST { return false }
            throw .io(url, operation: "create", reason: lastErrorText())
        }
        remove(draft.url)
        return true
    }

    /// Removes and closes a draft that will not be published.
    static func discard(_ draft: Draft) {
        DraftFile.discard(draft)
    }
}
