import Operations

extension ScenarioJournal {
    /// What a journal's file survives, and so which call it makes when a step finishes.
    ///
    /// Every level collects events in memory and writes them to the file when a step's attempt
    /// finishes, when the run starts or ends, on ``ScenarioJournal/flush()`` and when 64 KiB have
    /// gathered. Every level also makes the launch
    /// line of a step with side effects durable, with its idempotency key, before the step runs
    /// (`Purity.sideEffects`): a request is never sent without its key on disk.
    ///
    /// The levels differ in what a finished step's line survives:
    ///
    /// | level       | a process kill | a power loss                        | call when a step finishes                          |
    /// |-------------|----------------|-------------------------------------|----------------------------------------------------|
    /// | ``buffered``| kept           | may lose any line since the last durable one | none                                      |
    /// | ``ordered`` | kept           | the journal is a prefix of what was written | Darwin `fcntl(F_BARRIERFSYNC)`; Linux `fdatasync` |
    /// | ``durable`` | kept           | every finished step kept            | Darwin `fcntl(F_FULLFSYNC)`; Linux `fsync`         |
    ///
    /// Where Darwin's file system supports neither `fcntl`, `fsync` is made instead.
    ///
    /// `.buffered` is the default of ``ScenarioJournal/create(at:runID:scenario:settings:input:durability:createdAt:sealer:)``
    /// and ``RunStore``. Pick by what the power loss would cost the person using the app: a
    /// resumed run replays what its journal kept and launches the rest again, and a step with side
    /// effects whose finish was lost is relaunched with the same idempotency key, so no level lets
    /// a backend act twice. `.buffered` suits most apps (a phone rarely loses power with the app
    /// running, and iOS suspends rather than kills). `.ordered` when redoing finished steps after a
    /// power loss is acceptable but a journal must never be refused for lost lines — on Darwin at a
    /// small fraction of a full flush. `.durable` when a finished step must never be redone, e.g.
    /// one that asked the person for something they cannot give twice; it costs a drive flush per
    /// step (Docs/Benchmarks.md, `journal.fsync`).
    public struct Durability: Sendable {
        /// What the sync after a finished step promises; `nil` for ``buffered``, which makes none.
        package let guarantee: DiskSync.Guarantee?
        /// A sync that replaces the platform's, for a test that counts calls.
        let custom: JournalSync?

        /// Writes without syncing a finished step: survives the process being killed, not the
        /// machine losing power. The default.
        public static let buffered = Durability(guarantee: nil, custom: nil)

        /// Orders each finished step's lines before what follows (Darwin's `F_BARRIERFSYNC`,
        /// Linux's `fdatasync`): after a power loss the journal is a prefix of what was written —
        /// it resumes, redoing the steps whose lines were lost, and is never refused for them.
        public static let ordered = Durability(guarantee: .ordered, custom: nil)

        /// Flushes the file to the drive once per completed step (success or final failure) and at
        /// the run's end — not once per event — so every finished step survives a power loss
        /// (Darwin's `F_FULLFSYNC`, Linux's `fsync`). Each flush is marked beside the journal,
        /// without a sync of its own, so a journal later found shorter than a mark says is
        /// refused rather than resumed.
        public static let durable = Durability(guarantee: .durable, custom: nil)

        /// Durable mode with another sync, e.g. one that counts calls in a test.
        ///
        /// - Parameter sync: Called where durable mode syncs.
        /// - Returns: A durable mode that syncs with `sync`.
        public static func durable(syncingWith sync: JournalSync) -> Durability {
            Durability(guarantee: .durable, custom: sync)
        }

        /// Whether every completed step survives a power loss (``durable``).
        public var isDurable: Bool { guarantee == .durable }
    }
}

/// A sync that replaces the platform's in a durable journal, e.g. one that counts calls in a test.
public struct JournalSync: Sendable {
    let body: @Sendable (Int32) throws -> Void

    /// Creates a sync.
    ///
    /// - Parameter body: Makes the file open at `fileDescriptor` durable; an error it throws is
    ///   kept and thrown by the journal's next `flush()` or `close()`.
    public init(_ body: @escaping @Sendable (_ fileDescriptor: Int32) throws -> Void) {
        self.body = body
    }

    /// The platform's full sync, as ``ScenarioJournal/Durability/durable`` makes it: `fsync(2)` on
    /// Linux, `fcntl(F_FULLFSYNC)` (or `fsync` where the file system does not support it) on
    /// Darwin.
    public static let fsync = JournalSync { descriptor in
        if let reason = JournalFile.sync(descriptor) { throw SyncFailure(reason: reason) }
    }

    struct SyncFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}
