import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Contract 15: a run never acts beyond its journal. A write or sync that fails stops the run
/// before its next launch, the journal ends at its last good line, and the error reaches the host.
extension JournalTests {
    @Suite struct JournalHaltTests {
        typealias KeyedOps = InDoubtResumeTests.KeyedOps

        /// A file layer whose writes (or syncs) fail from the `from`-th call on, counting from 1.
        final class FailingDisk: Sendable {
            let writes = LockedState(0)
            let syncs = LockedState(0)
            let failWritesFrom: Int
            let failSyncsFrom: Int
            let error: Int32

            init(failWritesFrom: Int = .max, failSyncsFrom: Int = .max, error: Int32) {
                self.failWritesFrom = failWritesFrom
                self.failSyncsFrom = failSyncsFrom
                self.error = error
            }

            var io: JournalIO {
                JournalIO(
                    write: { bytes, descriptor in
                        let call = self.writes.withLock { count in
                            count += 1
                            return count
                        }
                        guard call >= self.failWritesFrom else { return JournalIO.system.write(bytes, descriptor) }
                        // A short write, then the error: part of the line reaches the file.
                        _ = JournalIO.system.write(
                            UnsafeRawBufferPointer(rebasing: bytes.prefix(bytes.count / 2)), descriptor)
                        return self.error
                    },
                    sync: { descriptor, guarantee in
                        let call = self.syncs.withLock { count in
                            count += 1
                            return count
                        }
                        return call >= self.failSyncsFrom ? self.error : JournalIO.system.sync(descriptor, guarantee)
                    })
            }
        }

        private func scenario(_ load: RecordingOps, _ charge: KeyedOps, _ save: RecordingOps) -> Scenario<Int, Int> {
            Scenario("Checkout") { chain in
                chain.then(Step("Load", load.make)).then(Step("Charge", charge.makeSideEffects)).then(
                    Step("Save", save.make))
            }
        }

        @Test(arguments: [ENOSPC, EIO, EDQUOT, EROFS])
        func aFailedWriteStopsTheRunBeforeTheStepWithSideEffects(error: Int32) throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("run.jsonl")
                let load = RecordingOps()
                let charge = KeyedOps()
                let save = RecordingOps()
                let checkout = scenario(load, charge, save)
                // Writes: the header, the start, Load's success, then Charge's launch line fails.
                let disk = FailingDisk(failWritesFrom: 4, error: error)
                let journal = try ScenarioJournal.create(
                    at: url, scenario: "Checkout", shape: checkout.shape, input: 1, io: disk.io)
                let result = run(checkout, 1, environment: OpEnvironment(observer: journal))

                #expect(load.launches == [1])
                #expect(charge.keys.isEmpty, "no request may go out whose key is not on disk")
                #expect(save.launches.isEmpty)
                let failure = try #require(result?.failure as? StepFailure)
                let halted = try #require(failure.rootCause as? RunHalted)
                let sentence = "\(halted)"
                #expect(sentence.contains(url.path))
                #expect(sentence.contains(String(cString: strerror(error))))
                #expect(throws: JournalError.self) { try journal.close() }

                // No hole: the file ends with the last good line, then at most a torn piece of
                // the failed one, which a reader drops.
                let record = try ScenarioJournal.load(url)
                #expect(record.step(at: StepAddress((0, "Load")))?.outcome == .succeeded)
                #expect(record.step(at: StepAddress((1, "Charge"))) == nil)
                #expect(record.status != .succeeded)
            }
        }

        @Test func aFailedSyncOfTheLaunchLineStopsTheRunBeforeTheOperationActs() throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("run.jsonl")
                let charge = KeyedOps()
                let checkout = scenario(RecordingOps(), charge, RecordingOps())
                // A buffered journal syncs first for the write-ahead of Charge's launch line.
                let disk = FailingDisk(failSyncsFrom: 1, error: EIO)
                let journal = try ScenarioJournal.create(
                    at: url, scenario: "Checkout", shape: checkout.shape, input: 1, io: disk.io)
                let result = run(checkout, 1, environment: OpEnvironment(observer: journal))
                #expect(charge.keys.isEmpty)
                #expect((result?.failure as? StepFailure)?.rootCause is RunHalted)
                #expect(throws: JournalError.self) { try journal.close() }
                let before = try Data(contentsOf: url)
                // Nothing is written after the failure, not even the close's end line.
                #expect(try ScenarioJournal.load(url).status != .succeeded)
                #expect(try Data(contentsOf: url) == before)
            }
        }

        @Test func noRetryOrFailureHandlerRunsAfterAHalt() throws {
            try withTemporaryDirectory { directory in
                let url = directory.appendingPathComponent("run.jsonl")
                let charge = KeyedOps()
                let handled = LockedState(0)
                let checkout = Scenario<Int, Int>("Checkout") { chain in
                    chain.then(
                        Step("Charge", charge.makeSideEffects).retrying(
                            RetryPolicy(maxAttempts: 5, backoff: .immediate, relaunchesSideEffects: true) { _ in true }
                        ).onFailure { info, decide in
                            handled.withLock { $0 += 1 }
                            decide(.relaunch(info.input))
                        })
                }
                let disk = FailingDisk(failSyncsFrom: 1, error: EIO)
                let journal = try ScenarioJournal.create(
                    at: url, scenario: "Checkout", shape: checkout.shape, input: 1, io: disk.io)
                let result = run(checkout, 1, environment: OpEnvironment(observer: journal))
                #expect((result?.failure as? StepFailure)?.rootCause is RunHalted)
                #expect(charge.keys.isEmpty)
                #expect(handled.withLock { $0 } == 0)
                try? journal.close()
            }
        }
    }
}
