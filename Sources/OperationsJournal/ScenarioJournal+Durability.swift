import Operations

extension ScenarioJournal {
    /// How hard a journal works to keep its events through a crash.
    ///
    /// Both modes collect events in memory and write them to the file (no sync) when a step's
    /// attempt finishes, when the run starts or ends, on ``ScenarioJournal/flush()`` and when
    /// 64 KiB have gathered: an event costs an encode and a memory append, and a killed process
    /// loses at most the launch line of the step it was running — never a finished step's
    /// output, which is what resuming needs.
    public struct Durability: Sendable {
        let sync: JournalSync?

        /// Writes without syncing: survives the process being killed, not the machine losing
        /// power.
        public static let buffered = Durability(sync: nil)

        /// Also syncs the file to disk once per completed step (success or final failure) and
        /// at the run's end — not once per event — so a completed step survives a power loss.
        /// Each sync is marked beside the journal, without a sync of its own, so a journal later
        /// found shorter than a mark says is refused rather than resumed.
        public static let durable = Durability(sync: .fsync)

        /// Durable mode with another sync, e.g. one that counts calls in a test.
        ///
        /// - Parameter sync: Called where durable mode syncs.
        /// - Returns: A durable mode that syncs with `sync`.
        public static func durable(syncingWith sync: JournalSync) -> Durability {
            Durability(sync: sync)
        }

        /// Whether completed steps are synced to disk.
        public var isDurable: Bool { sync != nil }
    }
}

/// How a durable journal pushes its file to disk; the platform's full sync unless a test injects
/// another (`fsync(2)` on Linux; `fcntl(F_FULLFSYNC)` on Darwin, where `fsync` alone leaves the
/// data in the drive's cache).
public struct JournalSync: Sendable {
    let body: @Sendable (Int32) throws -> Void

    /// Creates a sync.
    ///
    /// - Parameter body: Makes the file open at `fileDescriptor` durable; an error it throws is
    ///   kept and thrown by the journal's next `flush()` or `close()`.
    public init(_ body: @escaping @Sendable (_ fileDescriptor: Int32) throws -> Void) {
        self.body = body
    }

    /// The platform's full sync: `fsync(2)` on Linux, `fcntl(F_FULLFSYNC)` (or `fsync` where the
    /// file system does not support it) on Darwin.
    public static let fsync = JournalSync { descriptor in
        if let reason = JournalFile.sync(descriptor) { throw SyncFailure(reason: reason) }
    }

    struct SyncFailure: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }
}
