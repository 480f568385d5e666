public import Foundation
public import Operations
import OperationsJournal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tracer that appends every event to a file the moment it is recorded, so a run that is
/// killed or interrupted still leaves its trace up to the moment it stopped.
///
/// The file is JSON Lines: each opening of the file starts a *session* with a header line
/// (`{"session":true,"version":1}`), then one line per event, each written with a single
/// `write(2)` on a descriptor opened with `O_APPEND`, so lines of one process never interleave
/// and a kill leaves at most a torn last line, which `Trace/recorded(jsonLines:)` skips. There is
/// no `fsync`: the trace is a diagnostic, not a ledger, and the kernel keeps what a killed
/// process wrote. A rerun opens the same file again and appends a new session.
///
/// The file is created owner-only (0600). Labels are redacted when they are built (see
/// `Redactable`), so it holds no secret.
///
/// ```swift
/// let tracer = try FileTracer(appendingTo: runFolder.appendingPathComponent("run.trace.jsonl"))
/// var context = OpContext(input)
/// context.trace = .root(tracer)
/// ```
public final class FileTracer: Tracer {
    private struct State {
        var declared: [Participant.ID: Participant] = [:]
        var failedWrites = 0
        var stopped = false
    }

    private let descriptor: Int32
    private let state = LockedState(State())

    /// The file the events are appended to.
    public let url: URL

    /// Opens (creating owner-only if needed) the file at `url`, next to a run's journal, say,
    /// and starts a new session in it.
    /// - Throws: `TraceFileError` naming the file and the system's reason.
    public init(appendingTo url: URL) throws(TraceFileError) {
        let descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw TraceFileError(path: url.path, reason: String(cString: strerror(errno)))
        }
        // Written before the properties are set: an initialiser that throws once they all are
        // runs `deinit`, which would close the descriptor a second time — by then perhaps
        // another thread's file under the same number.
        if !Self.write(Data(TraceLines.sessionHeader.utf8), to: descriptor) {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw TraceFileError(path: url.path, reason: reason)
        }
        self.descriptor = descriptor
        self.url = url
    }

    deinit {
        close(descriptor)
    }

    /// Appends the event as one line. A repeated identical declaration is not written twice.
    /// A failed write is counted (see `failedWrites`), never thrown: tracing must not fail the
    /// run it watches.
    public func record(_ event: consuming TraceEvent) {
        guard var line = try? JSONEncoder().encode(event) else { return }
        line.append(0x0A)
        state.withLock { state in
            if state.stopped { return }
            // Under the lock, so the order of lines is the order the calls took effect.
            if case .declare(let participant) = event.kind {
                if state.declared[participant.id] == participant { return }
                if state.declared[participant.id] == nil { state.declared[participant.id] = participant }
            }
            if !Self.write(line, to: descriptor) { state.failedWrites += 1 }
        }
    }

    /// Ignores every later event: a host that has reported its run's end stops the trace there,
    /// so work still winding down on other threads does not draw after the end.
    public func stop() {
        state.withLock { $0.stopped = true }
    }

    /// How many events could not be written (a full disk, a removed folder); a host may mention
    /// that the saved trace is incomplete.
    public var failedWrites: Int {
        state.withLock { $0.failedWrites }
    }

    /// One `write(2)` of the whole line (a regular file takes it whole unless the disk is full).
    private static func write(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { DescriptorWrite.all($0, to: descriptor) == nil }
    }
}

/// A trace file that cannot be opened or started.
public struct TraceFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// The system's reason, e.g. "Permission denied".
    public let reason: String

    /// "cannot write the trace to PATH: REASON".
    public var description: String { "cannot write the trace to \(path): \(reason)" }
}
