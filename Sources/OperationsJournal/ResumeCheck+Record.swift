package import Operations

extension ResumeCheck {
    /// The verdict on a journal already read as a resume reads it
    /// (``ScenarioJournal/loadSkippingDamage(_:)``), for a build with one scenario: what `check`
    /// says of that run, for the fault explorer to hold against what its rerun does.
    ///
    /// - Parameters:
    ///   - record: The run.
    ///   - shape: The shape of the scenario the build resumes it with.
    ///   - sealer: The sealer the resume would open sealed values with.
    /// - Returns: The check, as ``check(_:against:sealer:)`` gives it for the run's entry.
    package static func check(
        _ record: JournalRecord, against shape: ScenarioShape, sealer: (any JournalSealer)?
    ) -> ResumeCheck {
        check(RunStore.Entry(id: record.runID, record: .success(record)), against: [shape.name: shape], sealer: sealer)
    }
}
