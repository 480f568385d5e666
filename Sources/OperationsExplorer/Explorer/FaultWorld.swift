import Foundation
import Operations
import OperationsJournal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The world one explored schedule runs in: it numbers every boundary the run reaches — each
/// request its services send, each journal write and sync, each wait for the clock — and puts
/// the schedule's fault at its boundary, including the death of the process (restarted at once,
/// or later on the wall clock) and Ctrl-C.
///
/// A flow's simulated services consult it: an adapter calls ``request(_:)`` before each
/// request and applies the fault it returns, and ``performed(_:)`` each time the service really
/// acts, so the explorer can check that no request acted twice.
///
/// ```swift
/// func send(_ request: Request, completion: …) {
///     switch world.request("charge") {
///     case .failBeforeActing?: completion(.failure(.unreachable))
///     case .serverError?: completion(.success(.status(503)))
///     case let fault: bank.handle(request) { answer in     // acts, calling world.performed
///         completion(fault == .loseAnswer ? .failure(.connectionLost) : answer) }
///     }
/// }
/// ```
public final class FaultWorld: Sendable {
    private let schedule: FaultSchedule
    private let state: LockedState<State>

    private struct State {
        var scheduler: TestScheduler
        var next = 0
        var boundaries: [Boundary] = []
        var dead = false
        /// The session's wall clock when its process died, and whether the next one starts late.
        var death: (at: Date, restartsLater: Bool)?
        var effects: [String: Int] = [:]
        var onInterrupt: (@Sendable () -> Void)?
        var onKilledWaiting: (@Sendable () -> Void)?
    }

    init(schedule: FaultSchedule, scheduler: TestScheduler) {
        self.schedule = schedule
        state = LockedState(State(scheduler: scheduler))
    }

    /// The clock of the current process: retries, backoff, waits and request timeouts wait on
    /// it, and the explorer moves it, so no schedule sleeps. Each process (session) of a schedule
    /// has a clock of its own, whose wall clock starts where the last one stopped — or later,
    /// after ``Fault/restartLater``. Read it when a service needs the time, not once when the
    /// service is built.
    public var scheduler: TestScheduler { state.withLock { $0.scheduler } }

    /// Called by a service adapter before it sends a request: the fault to apply to it, `nil`
    /// to send it as usual. Only the five request faults are returned (``Fault/failBeforeActing``,
    /// ``Fault/loseAnswer``, ``Fault/timeOut``, ``Fault/serverError``,
    /// ``Fault/tooManyRequests``); a dead process's requests all fail before acting.
    ///
    /// - Parameter name: The request's name, as a schedule prints it: `code/send`.
    /// - Returns: The fault, or `nil`.
    public func request(_ name: String) -> Fault? {
        switch reach(.request(name)) {
        case .kill?, .failBeforeActing?: return .failBeforeActing
        case .interrupt?: return nil
        case let fault?: return fault
        case nil: return isDead ? .failBeforeActing : nil
        }
    }

    /// Counts one effect the service performed (an SMS sent, a charge made): the explorer checks
    /// that each is performed at most once.
    ///
    /// - Parameter effect: What acted, one name per request (`sms`, `charge`).
    public func performed(_ effect: String) {
        state.withLock { $0.effects[effect, default: 0] += 1 }
    }

    /// Whether the process this session stands for has died.
    public var isDead: Bool { state.withLock { $0.dead } }

    // MARK: - The explorer's side

    var boundaries: [Boundary] { state.withLock { $0.boundaries } }
    var effects: [String: Int] { state.withLock { $0.effects } }

    var death: (at: Date, restartsLater: Bool)? { state.withLock { $0.death } }

    /// A new process on `scheduler`, alive, with no handlers until its run installs them.
    func beginSession(on scheduler: TestScheduler) {
        state.withLock { state in
            state.scheduler = scheduler
            state.dead = false
            state.death = nil
        }
        handle(interrupt: nil, killedWaiting: nil)
    }

    /// What Ctrl-C does in this process (note the interruption in its journal, cancel its run),
    /// and what its death while it waits does (tear its run down). `nil` lets go of them: they
    /// hold the journal, whose disk holds the world.
    func handle(interrupt: (@Sendable () -> Void)?, killedWaiting: (@Sendable () -> Void)?) {
        state.withLock { state in
            state.onInterrupt = interrupt
            state.onKilledWaiting = killedWaiting
        }
    }

    /// The process has nothing to do but wait for its clock: a wait boundary, where it may be
    /// killed, restarted later or interrupted.
    func waits() {
        guard let fault = reach(.wait), fault == .kill || fault == .restartLater else { return }
        state.withLock { $0.onKilledWaiting }?()
    }

    /// The journal's disk in this world. A dead process's writes fail (it halts at its next
    /// launch) and its requests fail before acting: it winds down with no effect. Nothing is
    /// called back from here, as the journal holds its lock while it writes.
    var io: JournalIO {
        JournalIO(
            write: { [self] bytes, descriptor in
                let fault = reach(.journalWrite)
                switch fault {
                case .diskFull?: return ENOSPC
                case .ioError?, .tornWrite?:
                    let half = UnsafeRawBufferPointer(rebasing: bytes.prefix(bytes.count / 2))
                    _ = JournalIO.system.write(half, descriptor)
                    return EIO
                case .kill?: return EIO
                default: return isDead ? EIO : JournalIO.system.write(bytes, descriptor)
                }
            },
            sync: { [self] _, _ in
                // The explorer's disk is the page cache: a sync only marks a boundary.
                switch reach(.journalSync) {
                case .syncFailure?, .kill?: return EIO
                default: return isDead ? EIO : nil
                }
            })
    }

    /// Numbers the boundary and returns its fault, killing or interrupting the process here.
    private func reach(_ kind: Boundary.Kind) -> Fault? {
        let (fault, interrupt): (Fault?, (@Sendable () -> Void)?) = state.withLock { state in
            guard !state.dead else { return (nil, nil) }
            let index = state.next
            state.next += 1
            state.boundaries.append(Boundary(index: index, kind: kind))
            guard let fault = schedule.fault(at: index), Fault.applicable(to: kind).contains(fault) else {
                return (nil, nil)
            }
            if fault == .kill || fault == .tornWrite || fault == .restartLater {
                state.dead = true
                state.death = (state.scheduler.wallClock, fault == .restartLater)
            }
            return (fault, fault == .interrupt ? state.onInterrupt : nil)
        }
        interrupt?()
        return fault
    }
}
