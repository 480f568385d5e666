/// Why a trace could not be loaded, validated or drawn.
///
/// Every case reads as a sentence through ``description``. Validation cases carry the index of
/// the offending event in ``Trace/events`` (printed as `event[i]`), so a failure points at the
/// recording code that went wrong. Renderers throw these instead of drawing an invalid trace.
public enum TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The data is not JSON, or not a saved trace (a missing or mistyped field).
    case malformedJSON(String)
    /// The trace was saved by a format version this build does not read.
    case unsupportedVersion(found: Int, supported: Int)
    /// An event has a kind this build does not know.
    case unknownEventKind(String, event: Int)
    /// An event refers to a participant that was not declared before it.
    case undeclaredParticipant(Participant.ID, event: Int)
    /// A participant is declared again with a different name or kind.
    case conflictingDeclaration(Participant.ID, event: Int)
    /// A participant is used in a role its kind does not allow (e.g. creating a key service).
    case wrongKind(Participant.ID, kind: Participant.Kind, expected: Participant.Kind, event: Int)
    /// A context service takes part in a message before it is created.
    case usedBeforeCreation(Participant.ID, event: Int)
    /// A context service takes part in a message after it was released.
    case usedAfterRelease(Participant.ID, event: Int)
    /// A context service is created while an earlier instance is still alive.
    case createdTwice(Participant.ID, event: Int)
    /// A context service is released while it is not alive.
    case releasedWhileNotAlive(Participant.ID, event: Int)
    /// A reply answers no open call (nor the creation) from its receiver.
    case unmatchedReply(from: Participant.ID, to: Participant.ID, event: Int)
    /// An operation finishes without being launched.
    case finishedBeforeLaunch(Participant.ID, event: Int)
    /// An operation finishes to someone other than its launcher.
    case finishedToWrongParticipant(
        Participant.ID, launchedBy: Participant.ID, finishedTo: Participant.ID, event: Int)
    /// An operation is launched again before its running launch finished.
    case launchedWhileRunning(Participant.ID, event: Int)
    /// An operation was launched and never finished.
    case neverFinished(Participant.ID)
    /// A message or note involves the caller edge in a way a diagram cannot draw (between two
    /// callers, a caller to itself).
    case callerMisused(Participant.ID, event: Int)
    /// The diagram cannot fit the maximum width even with every label wrapped.
    case diagramTooNarrow(required: Int, available: Int)
    /// A frame is closed, or given a branch, while no frame is open.
    case frameNotOpen(event: Int)
    /// A branch (`else`, `and`) is started in a frame that has none: not an ``FrameKind/alt``
    /// or a ``FrameKind/par``.
    case branchOutsideAlt(FrameKind, event: Int)
    /// A frame was opened and never closed.
    case frameNeverClosed(FrameKind, label: String)

    /// A human sentence describing the problem.
    public var description: String {
        switch self {
        case .malformedJSON(let reason):
            return "The data is not a saved trace: \(reason)."
        case .unsupportedVersion(let found, let supported):
            return "The trace was saved in format version \(found); this build reads version \(supported)."
        case .unknownEventKind(let kind, let event):
            return "event[\(event)] has the unknown kind '\(kind)'."
        case .undeclaredParticipant(let id, let event):
            return "event[\(event)] uses participant '\(id)', which was never declared before it."
        case .conflictingDeclaration(let id, let event):
            return "event[\(event)] declares participant '\(id)' again with a different name or kind."
        case .wrongKind(let id, let kind, let expected, let event):
            return
                "event[\(event)] uses '\(id)' as \(Self.article(expected)) \(expected.rawValue), but it is \(Self.article(kind)) \(kind.rawValue)."
        case .usedBeforeCreation(let id, let event):
            return "event[\(event)] involves context service '\(id)' before it is created."
        case .usedAfterRelease(let id, let event):
            return "event[\(event)] involves context service '\(id)' after it was released."
        case .createdTwice(let id, let event):
            return "event[\(event)] creates context service '\(id)' while it is still alive."
        case .releasedWhileNotAlive(let id, let event):
            return "event[\(event)] releases context service '\(id)', which is not alive."
        case .unmatchedReply(let from, let to, let event):
            return
                "event[\(event)] is a reply from '\(from)' to '\(to)', but '\(from)' has no open call from '\(to)' to answer (unbalanced activation)."
        case .finishedBeforeLaunch(let id, let event):
            return "event[\(event)] finishes operation '\(id)', which is not running (finish before launch)."
        case .finishedToWrongParticipant(let id, let launcher, let target, let event):
            return "event[\(event)] finishes operation '\(id)' to '\(target)', but it was launched by '\(launcher)'."
        case .launchedWhileRunning(let id, let event):
            return "event[\(event)] launches operation '\(id)' again before its running launch finished."
        case .neverFinished(let id):
            return "Operation '\(id)' was launched but never finished (unbalanced activation)."
        case .callerMisused(let id, let event):
            return
                "event[\(event)] uses caller '\(id)' on both ends or for a note; the caller is the diagram's left edge and can only send to or receive from a lifeline."
        case .diagramTooNarrow(let required, let available):
            return
                "The diagram needs at least \(required) columns (head boxes and bars, with every label wrapped), but the maximum width is \(available)."
        case .frameNotOpen(let event):
            return "event[\(event)] closes or branches a frame, but no frame is open."
        case .branchOutsideAlt(let kind, let event):
            return
                "event[\(event)] starts a branch in a '\(kind.rawValue)' frame; only 'alt' and 'par' frames have branches."
        case .frameNeverClosed(let kind, let label):
            return "The '\(kind.rawValue)' frame '\(label)' was opened and never closed."
        }
    }

    private static func article(_ kind: Participant.Kind) -> String {
        kind == .operation ? "an" : "a"
    }
}
