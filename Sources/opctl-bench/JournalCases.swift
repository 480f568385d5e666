import Foundation
import Operations
import OperationsJournal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The cases that measure the journal: one buffered event, one durable step.
///
/// Each round writes a fresh journal in a temporary directory and removes it afterwards; opening
/// and closing it are part of the round, spread over its events.
enum JournalCases {
    /// A step input of the size a real step carries: a few short fields.
    struct PhoneRequest: Codable, Sendable {
        let phone: String
        let locale: String
        let attempt: Int
        let acceptsTerms: Bool
    }

    /// The address of the journaled step: the scenario's second step.
    private static let address = StepAddress(path: [.init(index: 1, name: "PhoneOp")])

    static let buffered = BenchCase.timed(
        "journal.buffered", "one stepLaunched event with a small Codable struct appended to a buffered journal"
    ) { iterations in
        withJournal(durability: .buffered) { journal in
            for index in 0..<iterations {
                journal.scenario(launched(index))
            }
        }
    }

    /// The level `journal.fsync` journals at, and so the guarantee its floor syncs with.
    static let measuredDurability = ScenarioJournal.Durability.durable
    static let floorGuarantee = measuredDurability.guarantee ?? .durable

    /// The second event is written and synced.
    static let durable = BenchCase.timed(
        "journal.fsync", "one step journaled durably: stepLaunched + stepSucceeded, one sync",
        reference: "fsync.floor", targets: [.ratioAtMost(1.3)]
    ) { iterations in
        withJournal(durability: measuredDurability) { journal in
            for index in 0..<iterations {
                journal.scenario(launched(index))
                journal.scenario(
                    ScenarioEvent(
                        kind: .stepSucceeded, scenario: "BenchScenario", address: address, attempt: 1,
                        duration: .microseconds(1_250), value: "token-\(index)"))
            }
        }
    }

    private static func launched(_ index: Int) -> ScenarioEvent {
        ScenarioEvent(
            kind: .stepLaunched, scenario: "BenchScenario", address: address, attempt: 1, duration: nil,
            value: PhoneRequest(phone: "+15551234567", locale: "en_US", attempt: index, acceptsTerms: true))
    }

    /// The least a durable step can cost on this disk — a line of the size a step's two events
    /// take, then the sync the durable level makes: `journal.fsync` is judged against it, in the
    /// same run, on the same disk.
    static let floor = BenchCase.timed(
        "fsync.floor", "the floor of a durable step: one line appended to a file, then the journal's sync call"
    ) { iterations in
        let directory = scratchDirectory()
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("floor.jsonl").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { fatalError("opctl-bench: the floor case could not open its file") }
        defer { close(descriptor) }
        let line = Array(String(repeating: "x", count: 400).utf8) + [0x0a]
        for _ in 0..<iterations {
            _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            // The very call `journal.fsync`'s level makes after a step (fsync on Linux, F_FULLFSYNC
            // on Darwin): the floor is the same work without the journal.
            _ = DiskSync.sync(descriptor, floorGuarantee)
        }
    }

    private static func withJournal(durability: ScenarioJournal.Durability, _ body: (ScenarioJournal) -> Void) {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let journal = try ScenarioJournal.create(
                at: directory.appendingPathComponent("run.jsonl"), scenario: "BenchScenario", durability: durability)
            body(journal)
            try journal.close()
        } catch {
            fatalError("opctl-bench: the journal case could not write its file: \(error)")
        }
    }

    /// A new folder name in the temporary directory, for one round's files.
    private static func scratchDirectory() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("opctl-bench-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
    }
}
