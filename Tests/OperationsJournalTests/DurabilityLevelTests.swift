import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

/// Each durability level makes its own call through the journal's disk seam, and each platform
/// keeps each guarantee with its own system calls: what the levels promise about a power loss is
/// only true if these are the calls made.
extension JournalTests {
    @Suite struct DurabilityLevelTests {
        typealias KeyedOps = InDoubtResumeTests.KeyedOps

        /// A disk that writes for real and records the guarantee of every sync asked of it.
        final class RecordingDisk: Sendable {
            let syncs = LockedState<[DiskSync.Guarantee]>([])

            var io: JournalIO {
                JournalIO(
                    write: { bytes, descriptor in JournalIO.system.write(bytes, descriptor) },
                    sync: { descriptor, guarantee in
                        self.syncs.withLock { $0.append(guarantee) }
                        return JournalIO.system.sync(descriptor, guarantee)
                    })
            }
        }

        static func pure() -> Scenario<Int, Int> {
            Scenario("Pure") { chain in
                chain.then(Step("Load", RecordingOps().make)).then(Step("Save", RecordingOps().make))
            }
        }

        static func charging() -> Scenario<Int, Int> {
            Scenario("Checkout") { chain in
                chain.then(Step("Charge", KeyedOps().makeSideEffects))
            }
        }

        /// The syncs a run of `scenario` asks of the disk at `durability`, through close.
        static func syncs(
            _ durability: ScenarioJournal.Durability, _ scenario: Scenario<Int, Int>
        ) throws -> [DiskSync.Guarantee] {
            try withTemporaryDirectory { directory in
                let disk = RecordingDisk()
                let journal = try ScenarioJournal.create(
                    at: directory.appendingPathComponent("run.jsonl"), scenario: scenario.name,
                    shape: scenario.shape, input: 1, durability: durability, io: disk.io)
                let result = run(scenario, 1, environment: OpEnvironment(observer: journal))
                #expect(result?.success != nil, "\(String(describing: result))")
                try journal.close()
                return disk.syncs.withLock { $0 }
            }
        }

        /// A pure run: buffered makes no sync, ordered and durable make theirs once per finished
        /// step (the run's end is committed with the last step) and on creating the journal.
        @Test func eachLevelMakesItsOwnCallForFinishedSteps() throws {
            #expect(try Self.syncs(.buffered, Self.pure()) == [])
            let ordered = try Self.syncs(.ordered, Self.pure())
            #expect(!ordered.isEmpty && ordered.allSatisfy { $0 == .ordered }, "\(ordered)")
            let durable = try Self.syncs(.durable, Self.pure())
            #expect(durable.count == ordered.count && durable.allSatisfy { $0 == .durable }, "\(durable)")
        }

        /// Whatever the level, a step with side effects has its launch line, with its key, made
        /// durable before it runs: an ordering barrier would not put the key on disk.
        @Test(arguments: [ScenarioJournal.Durability.buffered, .ordered, .durable])
        func aStepWithSideEffectsIsWrittenAheadDurablyAtEveryLevel(durability: ScenarioJournal.Durability) throws {
            let syncs = try Self.syncs(durability, Self.charging())
            #expect(syncs.contains(.durable), "\(syncs)")
            if !durability.isDurable, durability.guarantee == nil {
                #expect(syncs == [.durable], "a buffered journal syncs only ahead of the step")
            }
        }

        /// The calls behind each guarantee, per platform: Darwin's fsync leaves the data in the
        /// drive's cache, so the durable level flushes it (F_FULLFSYNC) and the ordered level sets
        /// a barrier; Linux's fsync and fdatasync reach the device.
        @Test func eachPlatformKeepsEachGuaranteeWithItsCall() {
            #expect(DiskSync.calls(for: .durable, on: .darwin) == [.fullFsync, .fsync])
            #expect(DiskSync.calls(for: .ordered, on: .darwin) == [.barrierFsync, .fsync])
            #expect(DiskSync.calls(for: .durable, on: .linux) == [.fsync])
            #expect(DiskSync.calls(for: .ordered, on: .linux) == [.fdatasync])
        }

        /// Where the file system does not support an fcntl (some network volumes), the next call
        /// is made; the sync fails only when every call failed.
        @Test func aCallTheFileSystemRefusesFallsBackToTheNext() {
            let made = LockedState<[DiskSync.SystemCall]>([])
            let status = DiskSync.run(DiskSync.calls(for: .durable, on: .darwin), on: 7) { call, _ in
                made.withLock { $0.append(call) }
                return call == .fullFsync ? -1 : 0
            }
            #expect(status == 0)
            #expect(made.withLock { $0 } == [.fullFsync, .fsync])

            let allFailing = DiskSync.run([.barrierFsync, .fsync], on: 7) { _, _ in -1 }
            #expect(allFailing == -1)
        }

        /// The platform's own calls work on a real file (Linux here: the fcntls are Darwin's).
        @Test func theSystemCallsSucceedOnARealFile() throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("file")
                try Data("x\n".utf8).write(to: url)
                let handle = try FileHandle(forWritingTo: url)
                defer { try? handle.close() }
                #expect(DiskSync.sync(handle.fileDescriptor, .durable) == 0)
                #expect(DiskSync.sync(handle.fileDescriptor, .ordered) == 0)
            }
        }
    }
}
