package import Foundation
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written under a hidden temporary name beside its final one, `.<name>.<random>.tmp`,
/// then published by a link or a rename: a journal's header, a saved sign-in. A draft can hold
/// what its final file holds (a phone number, an access token), so the drafts a killed process
/// leaves are removed the next time their directory is opened (``removeAbandoned(in:finalNames:)``).
///
/// The rule that keeps that removal safe is a lock: a draft is held, from just after it is
/// created until it is published or discarded, by an exclusive advisory lock (`flock`) of the
/// process writing it. The lock dies with its process, so a draft whose lock another process can
/// take has no live writer, and is removed under that lock. The one moment a live draft is not
/// yet locked — between creating the file and locking it — is covered on the writer's side:
/// having taken the lock, it checks that its file still has a name, and if a tidier removed it
/// in that moment it starts again under another name.
package enum DraftFile {
    /// Owner read and write only: a draft may hold a secret.
    package static let mode: mode_t = 0o600

    /// An open, locked draft.
    package struct Handle: Sendable {
        /// The descriptor, open for writing (appending), holding the draft's lock.
        package let descriptor: Int32
        /// The draft's temporary name.
        package let url: URL
    }

    /// Why a draft could not be created: the system's reason, in words.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// The reason, e.g. "Permission denied".
        package let reason: String
        package var description: String { reason }
    }

    /// Creates a draft of `url`: exclusively, with mode 0600 checked on the open file, and
    /// locked.
    ///
    /// - Parameters:
    ///   - url: The final file the draft will become.
    ///   - folder: Where the draft is made, on the same file system as `url` (it is published
    ///     by a link or a rename); beside `url` by default.
    /// - Returns: The open, locked draft; publish it, or remove it with ``discard(_:)``.
    /// - Throws: ``Failure`` when the directory refuses the file, or the file cannot be made
    ///   owner-only.
    package static func create(of url: URL, in folder: URL? = nil) throws(Failure) -> Handle {
        let folder = folder ?? url.deletingLastPathComponent()
        for _ in 0..<16 {
            let suffix = String(UInt32.random(in: .min ... .max), radix: 16)
            let draft = folder.appendingPathComponent(".\(url.lastPathComponent).\(suffix).tmp", isDirectory: false)
            let descriptor = JournalFile.openDescriptor(
                draft, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, mode: mode)
            if descriptor < 0 {
                if errno == EEXIST { continue }
                throw Failure(reason: JournalFile.lastErrorText())
            }
            let handle = Handle(descriptor: descriptor, url: draft)
            // The umask can only narrow the mode; set it exactly and check it, since the mode is
            // what keeps a token in the draft from other users.
            var status = stat()
            guard fchmod(descriptor, mode) == 0, fstat(descriptor, &status) == 0, status.st_mode & 0o777 == mode else {
                let reason = JournalFile.lastErrorText()
                discard(handle)
                throw Failure(reason: "the draft \(draft.path) cannot be made owner-only: \(reason)")
            }
            guard lock(descriptor) else {
                let reason = JournalFile.lastErrorText()
                discard(handle)
                throw Failure(reason: "the draft \(draft.path) cannot be locked: \(reason)")
            }
            // A tidier that found the draft before it was locked removed it: another name.
            guard fstat(descriptor, &status) == 0, status.st_nlink > 0 else {
                _ = close(descriptor)
                continue
            }
            return handle
        }
        throw Failure(reason: "every temporary name beside \(url.lastPathComponent) was taken")
    }

    /// Closes a draft that will not be published and removes its name.
    package static func discard(_ handle: Handle) {
        // Removed before it is closed: the name goes while the lock still marks it as held.
        JournalFile.unlinkFile(handle.url)
        _ = close(handle.descriptor)
    }

    /// Removes the drafts a killed process left in `directory`: hidden files named exactly
    /// `.<name>.<random>.tmp`, `<random>` one to ten lowercase hexadecimal digits (a decimal
    /// number is one too), for a `<name>` that `finalNames` accepts. A draft whose lock a live
    /// process holds is kept; so is anything that is not a plain file.
    ///
    /// - Parameters:
    ///   - directory: The directory to tidy; a missing one has nothing to tidy.
    ///   - finalNames: Whether drafts of a final file of this name are this caller's to remove.
    @discardableResult
    package static func removeAbandoned(in directory: URL, finalNames: (Substring) -> Bool) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let final = finalName(ofDraft: name), finalNames(final) else { continue }
            let draft = directory.appendingPathComponent(name, isDirectory: false)
            if removeIfAbandoned(draft) { removed.append(name) }
        }
        return removed.sorted()
    }

    /// The final file's name in a draft's name, `nil` when `name` is not exactly a draft's.
    package static func finalName(ofDraft name: String) -> Substring? {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return nil }
        let inner = name.dropFirst().dropLast(".tmp".count)
        guard let dot = inner.lastIndex(of: "."), dot > inner.startIndex else { return nil }
        let random = inner[inner.index(after: dot)...]
        let hexadecimal = random.allSatisfy { ("0"..."9").contains($0) || ("a"..."f").contains($0) }
        guard (1...10).contains(random.count), hexadecimal else { return nil }
        return inner[..<dot]
    }

    /// Removes one draft if no live process holds it: takes the draft's lock without waiting,
    /// and removes it while holding the lock, if the name still leads to the file that was
    /// locked. Anything that is not a plain file is kept.
    ///
    /// - Parameter draft: A file named as ``finalName(ofDraft:)`` reads a draft's name.
    package static func removeIfAbandoned(_ draft: URL) -> Bool {
        let descriptor = JournalFile.openDescriptor(draft, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { _ = close(descriptor) }
        var locked = stat()
        var named = stat()
        guard fstat(descriptor, &locked) == 0, locked.st_mode & S_IFMT == S_IFREG,
            flock(descriptor, LOCK_EX | LOCK_NB) == 0
        else { return false }
        // Published or replaced since it was opened: the name is no longer this file's.
        let same = draft.withUnsafeFileSystemRepresentation { path in path.map { lstat($0, &named) == 0 } ?? false }
        guard same, named.st_dev == locked.st_dev, named.st_ino == locked.st_ino else { return false }
        return JournalFile.unlinkFile(draft) == 0
    }

    // MARK: - Internals

    /// Takes the exclusive lock, waiting for a tidier that holds it a moment.
    private static func lock(_ descriptor: Int32) -> Bool {
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }
}
