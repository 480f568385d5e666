/// Supplies a resumed run with the outputs its journal recorded, so the steps that completed
/// are replayed instead of launched again.
///
/// A step is replayed when its latest recorded attempt **succeeded** and its output was
/// recorded; a step that failed, was interrupted or never ran gets `nil`, so the scenario
/// launches it — with the replayed output of the step before as its input, i.e. the same input
/// as the failed attempt had.
///
/// ```swift
/// let journal = try ScenarioJournal.resume(at: url)
/// let environment = OpEnvironment(observer: journal, replay: journal.replay)
/// ```
public struct JournalReplay: StepReplaying {
    private let outputs: [StepAddress: RecordedValue]

    /// Creates a replay from a loaded journal.
    ///
    /// - Parameter record: The run to resume.
    public init(_ record: JournalRecord) {
        self.outputs = record.outputs
    }

    /// The recorded output of the step at `address`, decoded as `type`.
    ///
    /// - Parameters:
    ///   - address: The step.
    ///   - type: The step's output type. It must be `Decodable` to be replayed (checked at run
    ///     time); `Void` is replayed too.
    /// - Returns: The output, or `nil` when the step must be launched: it did not succeed, its
    ///   output was not recorded (not `Encodable`), or `type` is not `Decodable`.
    /// - Throws: ``JournalError/valueNotReadable(step:type:reason:)`` when a recorded output
    ///   does not decode as `type` (the journal was written by a different scenario version).
    public func recordedOutput<T: Sendable>(at address: StepAddress, as type: T.Type) throws -> T? {
        try outputs[address]?.decode(as: type, step: address)
    }
}
