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
    /// A journal being made under a hidden temporary name beside its final one, so the file
    /// never exists under its run's name without its header: a process killed while creating a
    /// run leaves at most a hidden temporary (`.<id>.jsonl.<random>.tmp`), never an empty
    /// journal listed as damaged forever. The draft holds the run's input (a phone number), so
    /// opening the store removes the ones a killed process left (``DraftFile``).
    struct Draft {
        let descriptor: Int32
        let temporary: URL
    }

    /// Creates the temporary of a journal to be published as `url`: mode 0600, exclusive, with
    /// the writer's lock already held (the lock belongs to the file, and stays with it).
    static func createDraft(of url: URL) throws(JournalError) -> Draft {
        do {
            let handle = try DraftFile.create(of: url)
            return Draft(descriptor: handle.descriptor, temporary: handle.url)
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
        let linked = draft.temporary.withUnsafeFileSystemRepresentation { from in
            url.withUnsafeFileSystemRepresentation { to in
                guard let from, let to else { return Int32(-1) }
                return link(from, to)
            }
        }
        if linked != 0 {
            if errno == EEXIST { return false }
            throw .io(url, operation: "create", reason: lastErrorText())
        }
        remove(draft.temporary)
        return true
    }

    /// Removes and closes a draft that will not be published.
    static func discard(_ draft: Draft) {
        DraftFile.discard(DraftFile.Handle(descriptor: draft.descriptor, url: draft.temporary))
    }
}
