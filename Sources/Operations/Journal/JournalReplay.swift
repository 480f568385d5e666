import Foundation
import Synchronization

/// Supplies a resumed run with what its journal recorded: the outputs of the steps that
/// completed, and the idempotency keys of the attempts left in doubt.
///
/// The rules, step by step (what a rerun guarantees, as `README.md` tells it):
/// - The latest attempt **succeeded**: the output is replayed and the operation is not
///   launched — except for an ``Purity/idempotent`` step, whose effect lives outside the journal
///   (a saved file) and may have been undone since: it is launched again, which is safe by
///   its nature.
/// - The latest attempt is **in doubt** (launched and never finished, or failed with an answer
///   that may have been lost — ``StepRecord/isInDoubt``): a pure or idempotent step is launched
///   again; a step with side effects is launched again **with the same idempotency key**, so the
///   backend answers the repeat instead of acting twice; if the journal has no key for it,
///   resumption stops before it with ``ResumeError/sideEffectsInDoubt(step:)`` unless
///   `relaunchingInDoubt` says to launch it anyway.
/// - The latest attempt **succeeded** but its output cannot be replayed (it holds a secret and
///   the journal had no ``JournalSealer``, or it is not `Encodable`): the step is launched
///   again, and a step with side effects **with the key of that attempt**, so the backend hands
///   back its first answer instead of acting twice.
/// - The journal has **damaged lines** (skipped on resume): a step with side effects that would
///   be launched with a new key stops the resumption with
///   ``ResumeError/sideEffectsAfterDamage(step:lines:)`` unless `relaunchingInDoubt` says to
///   launch it anyway — a lost line may have recorded an attempt of it that took effect.
/// - The latest attempt **failed** with a definite answer, or the step never ran: it is
///   launched, with the same input as before (the replayed output of the step before) and, for
///   a step with side effects, a new key.
/// - A step launched again stands where its latest attempt stood: when a failure handler had
///   relaunched it with a new input (the code asked again without another SMS, the terms to be
///   shown again), it gets that input — as long as its chain hands it the same value that
///   started it then (``resumedInput(at:current:)``). A step in doubt is thereby repeated with
///   the request its key was sent with.
///
/// - The journal answers for a step **once** in a resumed process: a step launched again there
///   (a nested scenario relaunched by its failure handler, the terms to be shown anew) runs as a
///   new launch, never from the journal's record of the attempt it replaces.
///
/// ```swift
/// let journal = try ScenarioJournal.resume(at: url)
/// let environment = OpEnvironment(observer: journal, replay: journal.replay)
/// ```
public struct JournalReplay: StepReplaying {
    private let outputs: [StepAddress: RecordedValue]
    private let launchInputs: [StepAddress: JournalRecord.LaunchInputs]
    /// The steps this process has asked about, each answered from the journal once.
    private let asked = AskedAddresses()
    private let inDoubt: [StepAddress: IdempotencyKey?]
    /// The keys of the succeeded attempts of steps with side effects.
    private let answeredKeys: [StepAddress: IdempotencyKey]
    private let relaunchingInDoubt: Bool
    private let sealer: (any JournalSealer)?
    /// The journal's damaged lines, skipped: a step with side effects that would get a new key
    /// may have had an attempt recorded in one of them.
    private let damagedLines: [Int]

    /// Creates a replay from a loaded journal.
    ///
    /// - Parameters:
    ///   - record: The run to resume.
    ///   - relaunchingInDoubt: Launch a step with side effects left in doubt even when the
    ///     journal has no idempotency key for it — the caller's explicit choice, for when it
    ///     knows the attempt did not take effect.
    ///   - sealer: Opens the outputs the run sealed (see ``JournalSealer``); without it, a step
    ///     whose output was sealed is launched again as if the output were withheld.
    public init(_ record: JournalRecord, relaunchingInDoubt: Bool = false, sealer: (any JournalSealer)? = nil) {
        self.outputs = record.outputs
        self.launchInputs = record.launchInputs
        self.sealer = sealer
        self.damagedLines = record.damagedLines.map(\.line)
        var answeredKeys: [StepAddress: IdempotencyKey] = [:]
        for step in record.steps where step.outcome == .succeeded {
            if let key = step.attempts.last?.idempotencyKey { answeredKeys[step.address] = key }
        }
        self.answeredKeys = answeredKeys
        var inDoubt: [StepAddress: IdempotencyKey?] = [:]
        // A step that is a nested scenario acts only through its own steps, which the journal
        // records and judge for themselves; the container is launched again to reach them.
        var containers = Set<StepAddress>()
        for step in record.steps where step.address.path.count > 1 {
            containers.insert(StepAddress(path: Array(step.address.path.dropLast())))
        }
        for step in record.steps where step.isInDoubt && !containers.contains(step.address) {
            inDoubt[step.address] = step.attempts.last?.idempotencyKey
        }
        self.inDoubt = inDoubt
        self.relaunchingInDoubt = relaunchingInDoubt
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
        try outputs[address]?.decode(as: type, step: address, sealer: sealer)
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
        if purity != .idempotent, let output = try recordedOutput(at: address, as: type) {
            return .replay(output)
        }
        if purity == .sideEffects, let key = answeredKeys[address] { return .launch(idempotencyKey: key) }
        guard purity == .sideEffects else { return .launch(idempotencyKey: nil) }
        if let refusal = refusalToLaunch(address) { throw refusal }
        // In doubt with a key: the repeat carries it. Otherwise a new request, with a new key.
        return .launch(idempotencyKey: inDoubt[address] ?? nil)
    }

    /// Why a step with side effects that is neither replayed nor answered by an earlier key must
    /// not be launched: the rules above for a step in doubt without a key and for a damaged
    /// journal. `nil` when it may be launched, or when the caller said to relaunch anyway.
    private func refusalToLaunch(_ address: StepAddress) -> ResumeError? {
        if relaunchingInDoubt { return nil }
        guard let doubt = inDoubt[address] else {
            return damagedLines.isEmpty ? nil : .sideEffectsAfterDamage(step: address, lines: damagedLines)
        }
        return doubt == nil ? .sideEffectsInDoubt(step: address) : nil
    }

    /// The refusal ``resumption(at:as:purity:)`` would meet at `address` if the resumed run
    /// asked about it, told before anything runs, so that checking a run and resuming it take
    /// the same decision (``JournalRecord/checkResumable(by:relaunchingInDoubt:sealer:)``).
    ///
    /// A recorded output counts as replayed when it is in clear, or sealed and this replay has
    /// a sealer; whether it decodes as the step's type is learnt only when the step asks. A
    /// step with side effects that succeeded always has a key in the journals of this format,
    /// so one whose output would not decode is launched with that key and is refused here
    /// neither.
    func predictedRefusal(at address: StepAddress, purity: Purity) -> ResumeError? {
        guard purity == .sideEffects, !predictsReplay(at: address, purity: purity), answeredKeys[address] == nil
        else { return nil }
        return refusalToLaunch(address)
    }

    /// Whether the step at `address` would be replayed from its recorded output rather than
    /// launched; a nested scenario replayed whole never asks about its own steps.
    func predictsReplay(at address: StepAddress, purity: Purity) -> Bool {
        guard purity != .idempotent else { return false }
        switch outputs[address] {
        case .json: return true
        case .sealed: return sealer != nil
        case .notRecorded, nil: return false
        }
    }

    /// The input of the step's latest attempt when it differs from the one that started it and
    /// `current` is that starting value; `nil` otherwise (launch with `current`).
    public func resumedInput<T: Sendable>(at address: StepAddress, current: T) -> T? {
        guard !asked.relaunched(address), let inputs = launchInputs[address], let latest = inputs.latest,
            inputs.started != latest,
            case .json(let started)? = inputs.started, Self.json(of: current) == started
        else { return nil }
        return (try? latest.decode(as: T.self, step: address, sealer: sealer)) ?? nil
    }

    /// A value as the journal would record it in clear, read back as JSON; `nil` for a value it
    /// would seal, withhold or could not encode.
    private static func json(of value: Any) -> JSONValue? {
        switch value {
        case let text as String: return .string(text)
        case let number as Int: return .integer(Int64(number))
        case let flag as Bool: return .bool(flag)
        default: break
        }
        guard let encodable = value as? any Encodable, let encoded = JSONValueEncoder.encode(encodable),
            !encoded.holdsSecret
        else { return nil }
        let bytes: [UInt8]
        if let node = encoded.node {
            var writer = JSONLineWriter(capacity: 256)
            writer.write(node)
            bytes = writer.bytes
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            guard let data = try? encoder.encode(encodable) else { return nil }
            bytes = Array(data)
        }
        return try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
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

    /// Whether `address` was asked about more than once.
    func relaunched(_ address: StepAddress) -> Bool {
        state.withLock { $0.again.contains(address) }
    }
}
