// Signposts (`OSSignposter`, Instruments' Points of Interest) exist only on Apple platforms;
// elsewhere a trace goes to `InMemoryTracer` or to a file (`FileTracer`, in OperationsRunner).
#if canImport(os)
    public import os

    /// A ``Tracer`` that shows a run in Instruments: each operation's launch-to-finish is a
    /// signposted interval named `operation`, each message a signpost event named `message`.
    ///
    /// Put it where a trace goes, as any tracer (``TraceScope/root(_:caller:)``), or beside the
    /// journal's trace file in a tracer of your own that forwards to both. The labels it logs are
    /// those of the trace, already redacted, and are logged as private (shown only on a device
    /// with a profile that allows it); the operation's name is public.
    ///
    /// Intervals are paired by the operation's participant: the launches of one participant
    /// still open when it finishes again end newest first, as nested launches do.
    public final class SignpostTracer: Tracer {
        private struct State {
            let signposter: OSSignposter
            var open: [Participant.ID: [OSSignpostIntervalState]] = [:]
        }

        /// The signposter and the open intervals, behind the package's lock: neither is declared
        /// `Sendable` by the SDK, and a tracer is called from any thread.
        private let state: LockedState<State>

        /// Creates a tracer that emits through the app's `signposter`, e.g.
        /// `OSSignposter(subsystem: "com.example.app", category: .pointsOfInterest)`.
        public init(signposter: OSSignposter) {
            state = LockedState(State(signposter: signposter))
        }

        /// Creates a tracer that emits under `subsystem` (usually the app's bundle identifier)
        /// and `category`.
        public convenience init(subsystem: String, category: String = "Operations") {
            self.init(signposter: OSSignposter(subsystem: subsystem, category: category))
        }

        /// Emits the signpost an event stands for: launches begin intervals, finishes end them,
        /// messages are events; the rest (declarations, notes, frames) are not emitted.
        public func record(_ event: consuming TraceEvent) {
            switch event.kind {
            case .launch(let operation, _, let label):
                state.withLock { state in
                    let interval = state.signposter.beginInterval(
                        "operation", id: state.signposter.makeSignpostID(),
                        "\(operation.rawValue, privacy: .public) \(label, privacy: .private)")
                    state.open[operation, default: []].append(interval)
                }
            case .finish(let operation, _, let label):
                state.withLock { state in
                    guard let interval = state.open[operation]?.popLast() else { return }
                    if state.open[operation]?.isEmpty == true { state.open[operation] = nil }
                    state.signposter.endInterval("operation", interval, "\(label, privacy: .private)")
                }
            case .message(let from, let to, let label, _):
                state.withLock { state in
                    state.signposter.emitEvent(
                        "message",
                        "\(from.rawValue, privacy: .public) → \(to.rawValue, privacy: .public): \(label, privacy: .private)"
                    )
                }
            default:
                break
            }
        }
    }
#endif
