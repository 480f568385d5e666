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
struct ParkMark: Equatable {
    /// The parked writer's process.
    let pid: Int32
    /// The parked journal's token.
    let token: String

    /// The mark's file for the journal at `journal`.
    static func url(for journal: URL) -> URL {
        journal.appendingPathExtension("parked")
    }

    /// Writes the mark; `false` when it could not be written (the lock is then kept).
    static func write(_ mark: ParkMark, for journal: URL) -> Bool {
        let bytes = Data("\(mark.pid) \(mark.token)\n".utf8)
        return (try? bytes.write(to: url(for: journal), options: .atomic)) != nil
    }

    /// The mark beside `journal`, or `nil` when there is none or it cannot be read.
    static func read(for journal: URL) -> ParkMark? {
        guard let text = try? String(contentsOf: url(for: journal), encoding: .utf8) else { return nil }
        let parts = text.split(whereSeparator: \.isWhitespace)
        guard parts.count == 2, let pid = Int32(parts[0]) else { return nil }
        return ParkMark(pid: pid, token: String(parts[1]))
    }

    /// Removes the mark beside `journal`.
    static func remove(for journal: URL) {
        _ = url(for: journal).withUnsafeFileSystemRepresentation { path in path.map { unlink($0) } }
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
}
