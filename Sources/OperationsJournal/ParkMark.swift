import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Who holds a run that waits without its file lock, kept beside the journal in
/// `<journal>.parked`: the writer's process id and a token of that journal object.
///
/// A journal lets go of its `flock` while its run is parked (a screen, a wait, a poll: see
/// ``ScenarioObserver/runParked()``), because iOS kills an app suspended while it holds a file
/// lock in a shared container (`0xdead10cc`). The lock is what kept a second writer out; while
/// it is down this mark does: a writer that takes the lock and finds the mark of a live process
/// refuses the run as in progress, and a listing shows the run running. The token lets the parked
/// journal tell, when it takes the lock again, that the mark is still its own.
///
/// A run parks at every screen, wait and poll, so the mark changes no directory there: the
/// file is made at the first park and kept open (``Writer``), each park writes the mark in place
/// and each going on blanks it (spaces over the same bytes, so no block is freed or taken), and
/// it is removed once, when the journal closes. A blank or empty file marks nobody. The mark is
/// written before the lock is let go of and blanked only after it is taken again, so a writer
/// that takes the lock never reads it half written.
struct ParkMark: Equatable {
    /// The parked writer's process.
    let pid: Int32
    /// The parked journal's token.
    let token: String

    /// The mark's file for the journal at `journal`.
    static func url(for journal: URL) -> URL {
        journal.appendingPathExtension("parked")
    }

    /// Every record has this length, so that each write covers the one before it whole.
    static let recordLength = 96

    /// The mark as its file holds it: one line, padded with spaces to ``recordLength``.
    var record: [UInt8] { MarkFile.record(Array("\(pid) \(token)".utf8), length: Self.recordLength) }

    /// The record that marks nobody: spaces.
    static let blank = MarkFile.record([], length: recordLength)

    /// The mark in a file's bytes; `nil` for a blank or empty file or bytes that are not a mark.
    static func decode(_ bytes: [UInt8]) -> ParkMark? {
        let parts = bytes.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") })
        guard parts.count == 2, let pid = Int32(String(decoding: parts[0], as: UTF8.self)) else { return nil }
        return ParkMark(pid: pid, token: String(decoding: parts[1], as: UTF8.self))
    }

    /// The mark beside `journal`, or `nil` when there is none, it is blank or it cannot be read.
    static func read(for journal: URL) -> ParkMark? {
        guard let bytes = try? JournalFile.readAll(url(for: journal)) else { return nil }
        return decode(bytes)
    }

    static func remove(for journal: URL) {
        JournalFile.remove(url(for: journal))
    }

    /// Whether a live process has parked the run at `journal`. A mark whose process is gone is
    /// stale (the process died waiting) and is removed. A process this one may not signal
    /// (`EPERM`, another user's or another app's) counts as live.
    static func isHeldByLiveProcess(_ journal: URL) -> Bool {
        guard let mark = read(for: journal) else { return false }
        if kill(mark.pid, 0) == 0 || errno == EPERM { return true }
        remove(for: journal)
        return false
    }

    /// The same for a journal named by path, for a listing.
    static func isHeldByLiveProcess(path: String) -> Bool {
        guard access(path + ".parked", F_OK) == 0 else { return false }
        return isHeldByLiveProcess(URL(fileURLWithPath: path))
    }

    /// The mark's file as one journal writes it: made at its first park, written in place at each
    /// park, blanked when the run goes on, removed when the journal closes.
    struct Writer {
        let mark: ParkMark
        private var file: MarkFile

        init(journal: URL, mark: ParkMark) {
            file = MarkFile(ParkMark.url(for: journal))
            self.mark = mark
        }

        /// Marks the run parked; `false` when the mark could not be written (the lock is then
        /// kept: without a mark, only the lock keeps a second writer out).
        mutating func park() -> Bool {
            guard file.write(mark.record) else {
                if file.isOpen { _ = file.write(ParkMark.blank) }
                return false
            }
            return true
        }

        /// Marks nobody: the run went on and holds its lock again.
        mutating func goOn() {
            if file.isOpen { _ = file.write(ParkMark.blank) }
        }

        /// Closes the file and removes it if it still holds this journal's mark or nobody's (a
        /// mark another process wrote after a takeover stays).
        mutating func close() {
            guard file.isOpen else { return }
            file.close()
            let found = try? JournalFile.readAll(file.url)
            if let found, ParkMark.decode(found) == nil || ParkMark.decode(found) == mark {
                JournalFile.remove(file.url)
            }
        }
    }
}
