public import Foundation
public import Operations
import OperationsDiagrams

/// The line format `FileTracer` writes.
enum TraceLines {
    static let sessionHeader = "{\"session\":true,\"version\":\(Trace.formatVersion)}\n"

    struct Header: Decodable {
        let session: Bool
        let version: Int
    }
}

/// A trace read back from a `FileTracer` file: every session of the run, one after another,
/// with each session that stopped half-way closed off so it can be drawn.
public struct RecordedTrace: Hashable, Sendable {
    /// The events of every session, each cut-off session closed with a `cut off` note and
    /// `cut off` finishes and replies, so the trace validates and renders.
    public let trace: Trace
    /// How many sessions (the run and its reruns) the file holds.
    public let sessions: Int
    /// Whether any session stopped before its operations finished (killed, interrupted, or a
    /// torn last line).
    public let isCutOff: Bool
    /// Whether the last session stopped before its operations finished: the file ends before
    /// the run's latest session did, whatever its journal says of how that session ended.
    public let endsCutOff: Bool
    /// Where each session starts in `trace`'s events, in order.
    public let sessionStarts: [Int]
    /// The lines of the file that could not be read and were skipped (counted from 1), the
    /// torn last line of a killed process aside: each is named by a note in `trace`.
    public let damagedLines: [Int]

    /// The trace with a divider (`TraceEvent/Kind/divider(label:)`) where each session
    /// starts, naming the scenario the session launched and which session it is:
    /// `AuthScenario: run` for a run of one session; `AuthScenario: run (session 1 of 2)`, then
    /// `AuthScenario: rerun 1 (session 2 of 2)` for a run and its rerun. Without them a
    /// rerun's session is found only through the notes of its steps, and the drawing of a
    /// step names no scenario.
    public func markingSessions() -> Trace {
        guard let first = sessionStarts.first else { return trace }
        var events: [TraceEvent] = []
        events.reserveCapacity(trace.events.count + sessionStarts.count)
        var callers = Set<Participant.ID>()
        var names: [Participant.ID: String] = [:]
        for participant in trace.participants {
            names[participant.id] = participant.name
            if participant.kind == .caller { callers.insert(participant.id) }
        }
        for (session, start) in sessionStarts.enumerated() {
            let end = session + 1 < sessionStarts.count ? sessionStarts[session + 1] : trace.events.count
            let part = trace.events[start..<end]
            let root = part.lazy.compactMap { event -> String? in
                guard case .launch(let operation, let launcher, _) = event.kind, callers.contains(launcher) else {
                    return nil
                }
                return names[operation] ?? operation.rawValue
            }.first
            let which = session == 0 ? "run" : "rerun \(session)"
            let count = sessionStarts.count > 1 ? " (session \(session + 1) of \(sessionStarts.count))" : ""
            // A session's declarations come first, so every participant is declared above the rule.
            let declarations = part.prefix { $0.isDeclaration }
            events.append(contentsOf: declarations)
            events.append(.divider((root.map { "\($0): " } ?? "") + which + count))
            events.append(contentsOf: part.dropFirst(declarations.count))
        }
        events.insert(contentsOf: trace.events[..<first], at: 0)
        return Trace(events: events)
    }
}

extension Trace {
    /// Reads a `FileTracer` file.
    ///
    /// A damaged last line (the process was killed while writing it) is skipped and the trace
    /// counts as cut off. A damaged line before it (the file was damaged at rest) is skipped
    /// too, as is a line this build cannot read (an event kind it does not know), and named by a
    /// note where it stood (`trace line 12 is unreadable: skipped`) and in
    /// `RecordedTrace/damagedLines`: what the file still holds is drawn, and the drawing says
    /// what is missing. A session that ends with operations still running, calls unanswered or
    /// services alive gets, at the point where it stopped, a `cut off` note over the innermost
    /// running operation, then for each running operation, innermost first, a `cut off` reply
    /// to each call it (or a service it created) still waits on, a release of each service it
    /// created, and its `cut off` finish, so the next session starts from a clean slate.
    /// - Throws: `TraceError/unsupportedVersion(found:supported:)` for a session of another
    ///   format.
    public static func recorded(jsonLines: Data) throws(TraceError) -> RecordedTrace {
        // Empty lines are kept, so that a line's index says which line of the file it is.
        let lines = jsonLines.split(separator: 0x0A, omittingEmptySubsequences: false)
        let lastLine = lines.lastIndex { !$0.isEmpty }
        var closer = SessionCloser()
        var events: [TraceEvent] = []
        var sessions = 0
        var sessionStarts: [Int] = []
        var cutOff = false
        var damaged: [Int] = []
        var tornTail = false
        let decoder = JSONDecoder()
        for (index, line) in lines.enumerated() where !line.isEmpty {
            let isLast = index == lastLine
            if let header = try? decoder.decode(TraceLines.Header.self, from: Data(line)), header.session {
                guard header.version == formatVersion else {
                    throw .unsupportedVersion(found: header.version, supported: formatVersion)
                }
                if closer.close(into: &events, sessionFollows: true) { cutOff = true }
                sessions += 1
                sessionStarts.append(events.count)
                continue
            }
            let event: TraceEvent
            do {
                event = try decoder.decode(TraceEvent.self, from: Data(line))
            } catch {
                if isLast {
                    tornTail = true
                    break
                }
                // The lines number from 1, as an editor shows them.
                damaged.append(index + 1)
                closer.skipped("trace line \(index + 1) is unreadable: skipped", into: &events)
                continue
            }
            closer.track(event, into: &events)
        }
        let endsCutOff = closer.close(into: &events, sessionFollows: false) || tornTail
        return RecordedTrace(
            trace: Trace(events: events), sessions: sessions, isCutOff: cutOff || endsCutOff, endsCutOff: endsCutOff,
            sessionStarts: sessionStarts, damagedLines: damaged)
    }
}
