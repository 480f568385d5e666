import Foundation
public import Operations
import Synchronization

/// Supplies a resumed run with what its journal recorded: the outputs of the steps that
/// completed, and the idempotency keys of the requests to repeat.
///
/// The rules, step by step:
/// - The latest attempt **succeeded**: the output is replayed and the operation is not
///   launched — except for an `Purity/idempotent` step, whose effect lives outside the journal
///   (a saved file) and may have been undone since: it is launched again, which is safe by
///   its nature.
/// - A step with side effects that must be launched again (its latest attempt failed, in doubt
///   or not, or succeeded with an output the journal could not keep) is launched **with the key
///   of its latest attempt**, whatever that attempt's error said: an earlier attempt with the
///   same key may have acted and lost its answer, so the backend answers the repeat instead of
///   acting twice (the rule of `IdempotencyKey`). Only when the value it is launched with is
///   provably another one (``repeatsRecordedRequest(at:input:)``) does it get a new key.
/// - A step with side effects **in doubt** (``StepRecord/isInDoubt``) whose journal has no key
///   (written before keys were) stops the resumption with
///   ``ResumeError/sideEffectsInDoubt(step:)`` unless `relaunchingInDoubt` says to launch it
///   anyway.
/// - The journal has **damaged lines** (skipped on resume): a step with side effects that would
///   be launched with a new key stops the resumption with
///   ``ResumeError/sideEffectsAfterDamage(step:lines:)`` unless `relaunchingInDoubt` says to
///   launch it anyway — a lost line may have recorded an attempt of it that took effect.
/// - A step that never ran is launched with the input its chain hands it and, with side
///   effects, a new key.
/// - A step launched again stands where its latest attempt stood: when a failure handler had
///   relaunched it with a new input (the code asked again without another SMS, the terms to be
///   shown again), it gets that input — as long as its chain hands it the same value that
///   started it then (``resumedInput(at:current:)``). A step in doubt is thereby repeated with
///   the request its key was sent with.
///
/// - A step whose failure for good started an **undoing** of the run's finished steps
///   (`ScenarioEvent.Kind.compensationStarted`) fails again with its recorded error,
///   launching nothing, so the rerun goes on undoing: compensations that finished are replayed,
///   one in doubt is repeated with its key, the rest are launched.
/// - The journal answers for a step **once** in a resumed process: a step launched again there
///   (a nested scenario relaunched by its failure handler, the terms to be shown anew) runs as a
///   new launch, never from the journal's record of the attempt it replaces.
///
/// ```swift
/// let journal = try ScenarioJournal.resume(at: url, shape: scenario.shape)
/// let environment = OpEnvironment(observer: journal, replay: journal.replay)
/// ```
public struct JournalReplay: StepReplaying {
    private let record: JournalRecord
    /// The steps this process has asked about, each answered from the journal once.
    private let asked = AskedAddresses()
    /// The steps that are nested scenarios: one acts only through its own steps, which the
    /// journal records and judge for themselves, so it is never in doubt itself; it is launched
    /// again to reach them.
    private let containers: Set<StepAddress>
    private let relaunchingInDoubt: Bool
    private let sealer: (any JournalSealer)?
    /// The journal's damaged lines, skipped: a step with side effects that would get a new key
    /// may have had an attempt recorded in one of them.
    private let damagedLines: [Int]

    /// Creates a replay from a loaded journal.
    ///
    /// - Parameters:
    ///   - record: The run's journal, as loaded.
    ///   - relaunchingInDoubt: Launch a step with side effects left in doubt even when the
    ///     journal has no idempotency key for it — the caller's explicit choice, for when it
    ///     knows the attempt did not take effect.
    ///   - sealer: Opens the outputs the run sealed (see ``JournalSealer``); without it, a step
    ///     whose output was sealed is launched again as if the output were withheld.
    public init(_ record: JournalRecord, relaunchingInDoubt: Bool = false, sealer: (any JournalSealer)? = nil) {
        self.record = record
        self.sealer = sealer
        self.damagedLines = record.damagedLines.map(\.line)
        self.containers = Set(
            record.steps.filter { $0.address.path.count > 1 }.map {
                StepAddress(path: Array($0.address.path.dropLast()))
            })
        self.relaunchingInDoubt = relaunchingInDoubt
    }

    /// The recorded output of the step at `address`, decoded as `type`.
    ///
    /// - Parameters:
    ///   - address: The step's place in the run.
    ///   - type: The step's output type. It must be `Decodable` to be replayed (checked at run
    ///     time); `Void` is replayed too.
    /// - Returns: The output, or `nil` when the step must be launched: it did not succeed, its
    ///   output was not recorded (not `Encodable`), or `type` is not `Decodable`.
    /// - Throws: ``JournalError/valueNotReadable(step:type:reason:)`` when a recorded output
    ///   does not decode as `type` (the journal was written by a different scenario version).
    public func recordedOutput<T: Sendable>(at address: StepAddress, as type: T.Type) throws -> T? {
        try record.step(at: address)?.output?.decode(as: type, step: address, sealer: sealer)
    }

    /// How the resumed run goes on at `address`, by the rules above.
    ///
    /// - Throws: ``ResumeError/sideEffectsInDoubt(step:)``, or
    ///   ``JournalError/valueNotReadable(step:type:reason:)``.
    public func resumption<T: Sendable>(at address: StepAddress, as type: T.Type, purity: Purity) throws
        -> StepResumption<T>
    {
        // Asked again: the step is launched anew in this process (a relaunched nested scenario).
        guard asked.first(address) else { return .launch(idempotencyKey: nil) }
        // The run was undoing after this step failed for good: the undoing goes on, the step
        // is not tried again.
        if let error = record.compensating[address] { return .failAgain(error) }
        if purity != .idempotent, let output = try recordedOutput(at: address, as: type) {
            return .replay(output)
        }
        guard purity == .sideEffects else { return .launch(idempotencyKey: nil) }
        if let key = trustedKey(at: address) { return .launch(idempotencyKey: key) }
        if let refusal = refusalToLaunch(address) { throw refusal }
        return .launch(idempotencyKey: nil)
    }

    /// Where the polled step at `address` stood (``JournalRecord/pollProgress``).
    public func pollProgress(at address: StepAddress) -> PollProgress? {
        record.pollProgress[address]
    }

    /// The key a relaunch of the step repeats: its latest attempt's. With damaged lines, a key
    /// is trusted only where the intact lines show the request may have acted or did (in doubt,
    /// or succeeded): a lost line may hold a later launch of the step with another value, so for
    /// anything else the caller decides.
    private func trustedKey(at address: StepAddress) -> IdempotencyKey? {
        guard let step = record.step(at: address), let key = step.attempts.last?.idempotencyKey,
            damagedLines.isEmpty || relaunchingInDoubt || isInDoubt(address) || step.outcome == .succeeded
        else { return nil }
        return key
    }

    private func isInDoubt(_ address: StepAddress) -> Bool {
        record.step(at: address)?.isInDoubt == true && !containers.contains(address)
    }

    /// Why a step with side effects that has no key to repeat must not be launched: in doubt
    /// (a journal from before keys), or after damaged lines. `nil` when it may be launched with
    /// a new key, or when the caller said to relaunch anyway.
    private func refusalToLaunch(_ address: StepAddress) -> ResumeError? {
        if relaunchingInDoubt { return nil }
        if isInDoubt(address) { return .sideEffectsInDoubt(step: address) }
        return damagedLines.isEmpty ? nil : .sideEffectsAfterDamage(step: address, lines: damagedLines)
    }

    /// The refusal ``resumption(at:as:purity:)`` would meet at `address` if the resumed run
    /// asked about it, told before anything runs, so that checking a run and resuming it take
    /// the same decision (``JournalRecord/checkResumable(by:relaunchingInDoubt:sealer:)``).
    ///
    /// A recorded output counts as replayed when it is in clear, or sealed and this replay has
    /// a sealer; whether it decodes as the step's type is learnt only when the step asks.
    func predictedRefusal(at address: StepAddress, purity: Purity) -> ResumeError? {
        guard purity == .sideEffects, !predictsReplay(at: address, purity: purity), trustedKey(at: address) == nil
        else { return nil }
        return refusalToLaunch(address)
    }

    /// Whether the step at `address` would be replayed from its recorded output rather than
    /// launched; a nested scenario replayed whole never asks about its own steps.
    func predictsReplay(at address: StepAddress, purity: Purity) -> Bool {
        guard purity != .idempotent else { return false }
        switch record.step(at: address)?.output {
        case .json: return true
        case .sealed: return sealer != nil
        // A withheld field cannot be rebuilt; sealed ones open with the sealer.
        case .withConfidentialFields(let recorded): return recorded.withheld == nil && sealer != nil
        case .notRecorded, nil: return false
        }
    }

    /// Whether `input` is the value the step's latest attempt was launched with, as far as the
    /// journal can tell: a sealed, withheld or unencodable value counts as the same (keeping the
    /// key is the safe side — a server refuses a key reused for another request, while a new key
    /// for the same request may make it act twice).
    public func repeatsRecordedRequest<T: Sendable>(at address: StepAddress, input: T) -> Bool {
        guard case .json(let recorded)? = record.step(at: address)?.launchInputs?.latest,
            let current = Self.comparableJSON(of: input)
        else {
            return true
        }
        return recorded == current
    }

    /// The input of the step's latest attempt when it differs from the one that started it and
    /// `current` is that starting value; `nil` otherwise (launch with `current`).
    public func resumedInput<T: Sendable>(at address: StepAddress, current: T) -> T? {
        guard !asked.relaunched(address), let inputs = record.step(at: address)?.launchInputs,
            let latest = inputs.latest, inputs.started != latest,
            case .json(let started)? = inputs.started, Self.comparableJSON(of: current) == started
        else { return nil }
        return (try? latest.decode(as: T.self, step: address, sealer: sealer)) ?? nil
    }

    /// A value as the journal would record it in clear, as ``RecordedValue/json(_:)`` holds
    /// it once read back; `nil` for a value it would seal, withhold or could not encode.
    private static func comparableJSON(of value: Any) -> Data? {
        RecordedValue.clearJSON(of: value).flatMap(ComparableJSON.Decoded.data)
    }
}

/// Which steps a resumed process has asked the journal about, and which it asked twice.
private final class AskedAddresses: Sendable {
    private let state = Mutex<(once: Set<StepAddress>, again: Set<StepAddress>)>(([], []))

    /// Whether this is the first question about `address`; a later one marks it relaunched.
    func first(_ address: StepAddress) -> Bool {
        state.withLock { state in
            if state.once.insert(address).inserted { return true }
            state.again.insert(address)
            return false
        }
    }

    func relaunched(_ address: StepAddress) -> Bool {
        state.withLock { $0.again.contains(address) }
    }
}
