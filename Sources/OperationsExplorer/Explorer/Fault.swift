/// One failure the explorer puts at one boundary of a run: a request, a journal write, a
/// journal sync or a wait. Every boundary can also see the process killed there.
public enum Fault: String, Sendable, Hashable, Codable, CaseIterable {
    /// The request fails before it reaches the service: nothing acted.
    case failBeforeActing
    /// The service acts, and its answer is lost on the way back.
    case loseAnswer
    /// The service acts, and the client gives up waiting first.
    case timeOut
    /// The service answers 5xx without acting.
    case serverError
    /// The service answers 429 without acting.
    case tooManyRequests
    /// The journal's write fails with ENOSPC, nothing written.
    case diskFull
    /// The journal's write fails with EIO after writing half its bytes.
    case ioError
    /// The journal's sync fails with EIO.
    case syncFailure
    /// The process dies halfway through a journal write: the file ends in a torn line.
    case tornWrite
    /// The process dies (SIGKILL) at the boundary, before it: a new process resumes the run
    /// from exactly the bytes on disk.
    case kill
    /// The person presses Ctrl-C at the boundary: the run is cancelled as interrupted.
    case interrupt
    /// The process dies while it waits (a durable wait, the interval between polls, a retry's
    /// backoff), and the next process starts later on the wall clock
    /// (``FaultExplorer/restartDelay``, an hour by default): what was due during the wait is
    /// overdue when the run resumes, and a wait's limit may have passed.
    case restartLater

    /// The faults that can happen at a boundary of this kind.
    static func applicable(to kind: Boundary.Kind) -> [Fault] {
        switch kind {
        case .request: [.failBeforeActing, .loseAnswer, .timeOut, .serverError, .tooManyRequests, .kill, .interrupt]
        case .journalWrite: [.diskFull, .ioError, .tornWrite, .kill]
        case .journalSync: [.syncFailure, .kill]
        case .wait: [.kill, .restartLater, .interrupt]
        }
    }
}

/// A place in a run where something can fail, numbered in the order the run reaches them over
/// all its sessions.
public struct Boundary: Sendable, Hashable, CustomStringConvertible {
    /// What happens there.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// A request to a service, by the name its adapter gives (`code/send`).
        case request(String)
        /// A write of journal lines.
        case journalWrite
        /// A sync of the journal file.
        case journalSync
        /// The moment the process has nothing to do but wait for its clock to move: a durable
        /// wait, the interval between polls, a retry's backoff.
        case wait

        /// `request code/send`, `journal write`, `journal sync`, `wait`.
        public var description: String {
            switch self {
            case .request(let name): "request \(name)"
            case .journalWrite: "journal write"
            case .journalSync: "journal sync"
            case .wait: "wait"
            }
        }
    }

    /// The boundary's number in the run, from 0.
    public let index: Int
    /// What happens there.
    public let kind: Kind

    /// `#7 request code/send`.
    public var description: String { "#\(index) \(kind)" }
}

/// The faults of one explored run, each at the boundary with its number: what a violation
/// prints, and what ``FaultExplorer/replay(_:)`` runs again.
public struct FaultSchedule: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One fault at one boundary.
    public struct Entry: Sendable, Hashable, Codable {
        /// The boundary's number in the run.
        public var boundary: Int
        /// The fault.
        public var fault: Fault

        /// Creates an entry.
        public init(boundary: Int, fault: Fault) {
            self.boundary = boundary
            self.fault = fault
        }
    }

    /// The faults, by boundary.
    public var entries: [Entry]

    /// Creates a schedule; entries are kept in boundary order.
    ///
    /// - Parameter entries: One fault per boundary at most.
    public init(_ entries: [Entry] = []) {
        self.entries = entries.sorted { $0.boundary < $1.boundary }
    }

    func fault(at boundary: Int) -> Fault? {
        entries.first { $0.boundary == boundary }?.fault
    }

    /// `no faults`, or `kill@4, loseAnswer@9`.
    public var description: String {
        entries.isEmpty ? "no faults" : entries.map { "\($0.fault)@\($0.boundary)" }.joined(separator: ", ")
    }

    /// Swift source that builds this schedule, for a test to paste:
    /// `FaultSchedule([.init(boundary: 4, fault: .kill), .init(boundary: 9, fault: .loseAnswer)])`.
    /// It compiles wherever `OperationsTesting` is imported, and builds a schedule equal to this one.
    public var swiftSource: String {
        "FaultSchedule(["
            + entries.map { ".init(boundary: \($0.boundary), fault: .\($0.fault.rawValue))" }
            .joined(separator: ", ") + "])"
    }
}
