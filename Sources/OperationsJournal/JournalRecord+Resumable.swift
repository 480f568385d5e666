public import Operations

extension JournalRecord {
    /// Whether a scenario of `shape` can resume this run: the one decision that `check`
    /// (``ResumeCheck``) and every resume with a shape
    /// (``ScenarioJournal/resume(at:shape:relaunchingInDoubt:durability:sealer:)``) take, so
    /// that a run `check` calls resumable is never refused by the resume, nor the other way.
    ///
    /// The rules, in order:
    /// - The journal must record a shape, the same as `shape` in every step the run reached
    ///   (`ScenarioShape/mismatch(journal:recordedSteps:)`); steps after those may have changed.
    /// - No step with side effects that the resumed run could reach may be one a replay would
    ///   refuse to launch (``JournalReplay``): in doubt with no idempotency key, or to be
    ///   launched with a new key in a journal with damaged lines. Every step of `shape` counts,
    ///   in the order the run asks about them, except the steps inside a nested scenario that
    ///   is replayed whole: a resume refuses before anything is launched or written rather than
    ///   halfway through.
    ///
    /// Read the record as a resume does, damaged lines skipped and listed
    /// (``ScenarioJournal/loadSkippingDamage(_:)``), so that ``damagedLines`` is what the replay
    /// will see.
    ///
    /// - Parameters:
    ///   - shape: The shape of the scenario that would resume the run.
    ///   - relaunchingInDoubt: The caller's word that a step with side effects in doubt may be
    ///     launched anyway (`rerun --relaunch-in-doubt`); only the shape is checked then.
    ///   - sealer: The sealer the resume would open sealed outputs with: a sealed output is
    ///     replayed only with one.
    /// - Throws: ``JournalError/missingShape(_:scenario:)``, ``JournalError/shapeMismatch(_:_:)``,
    ///   or ``JournalError/resumeRefused(_:_:)`` naming the first step that could act twice.
    public func checkResumable(
        by shape: ScenarioShape, relaunchingInDoubt: Bool = false, sealer: (any JournalSealer)? = nil
    ) throws(JournalError) {
        guard let recorded = self.shape else { throw .missingShape(url, scenario: scenario) }
        if let mismatch = shape.mismatch(journal: recorded, recordedSteps: steps.map(\.address)) {
            throw .shapeMismatch(url, mismatch)
        }
        guard !relaunchingInDoubt else { return }
        let replay = JournalReplay(self, sealer: sealer)
        if let refusal = Self.firstRefusal(in: shape, under: [], replay) { throw .resumeRefused(url, refusal) }
    }

    /// The first step of `shape`, depth first as a run asks about them, that the replay would
    /// refuse to launch.
    private static func firstRefusal(
        in shape: ScenarioShape, under path: [StepAddress.Component], _ replay: JournalReplay
    ) -> ResumeError? {
        for step in shape.steps {
            let address = StepAddress(path: path + [StepAddress.Component(index: step.index, name: step.name)])
            let purity = Self.purity(step.purity)
            if let refusal = replay.predictedRefusal(at: address, purity: purity) { return refusal }
            guard let nested = step.nested, !replay.predictsReplay(at: address, purity: purity) else { continue }
            if let refusal = firstRefusal(in: nested, under: address.path, replay) { return refusal }
        }
        return nil
    }

    /// A shape's purity text as the purity it names; a text this build does not know is taken
    /// for side effects, the purity that is never relaunched on a guess.
    private static func purity(_ text: String) -> Purity {
        switch text {
        case Purity.pure.description: .pure
        case Purity.idempotent.description: .idempotent
        default: .sideEffects
        }
    }
}
