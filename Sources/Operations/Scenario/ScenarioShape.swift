/// What a scenario is made of, as a journal needs to know it: its steps in order, with their
/// names, input and output types, purity, whether they may be skipped, and the shapes of the
/// scenarios nested in them.
///
/// A journal records the shape of the scenario that wrote it (see `RunStore/create(scenario:settings:input:durability:)`),
/// so a later build resumes the run only with a scenario of the same shape and refuses anything
/// else before a step launches, naming the first step that differs (``mismatch(journal:)``).
/// Recorded outputs are found by step position and name; replaying them into a scenario whose
/// steps moved would hand one step's output to another.
///
/// ```swift
/// let shape = authScenario.shape
/// print(shape.text)          // one line per step
/// print(shape.fingerprint)   // 16 hex digits, stable across builds and platforms
/// ```
public struct ScenarioShape: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The scenario's name.
    public let name: String
    /// The version the scenario's author gives it, if any; raised when steps are added in a way
    /// old runs can still resume.
    public let version: Int?
    /// The steps, in order.
    public let steps: [StepShape]

    /// Creates a shape.
    public init(name: String, version: Int? = nil, steps: [StepShape]) {
        self.name = name
        self.version = version
        self.steps = steps
    }

    /// One step of a scenario's shape.
    public struct StepShape: Sendable, Hashable, Codable {
        /// The step's position in its scenario, from 0.
        public let index: Int
        /// The step's name (its operation type's name by default).
        public let name: String
        /// The name of the type the step is launched with.
        public let input: String
        /// The name of the type the step finishes with.
        public let output: String
        /// The step's purity as text (``Purity/description``), so a shape reads back without
        /// knowing the build's types.
        public let purity: String
        /// Whether the step runs only when a condition holds (and is skipped otherwise).
        public let conditional: Bool
        /// The shape of the scenario the step launches, when its operation is a ``Scenario``.
        public let nested: ScenarioShape?
        /// The name of the step that undoes this one when a later step fails for good
        /// (``Step/compensated(by:input:)``); `nil` when nothing undoes it.
        public let undoneBy: String?

        /// Creates a step shape.
        public init(
            index: Int, name: String, input: String, output: String, purity: String, conditional: Bool,
            nested: ScenarioShape? = nil, undoneBy: String? = nil
        ) {
            self.index = index
            self.name = name
            self.input = input
            self.output = output
            self.purity = purity
            self.conditional = conditional
            self.nested = nested
            self.undoneBy = undoneBy
        }
    }

    /// A readable form, one line per step, nested steps indented under their scenario:
    ///
    /// ```
    /// AuthScenario v2
    ///   0 PhoneOp: Optional<PhoneNumber> -> SignInAttempt, side effects
    ///   1 TermsOfUseOp: PhoneToken -> TermsAcceptance, side effects, conditional
    /// ```
    public var text: String {
        var lines: [String] = []
        append(to: &lines, indent: "")
        return lines.joined(separator: "\n")
    }

    /// ``text``.
    public var description: String { text }

    /// A 64-bit FNV-1a hash of ``text`` as 16 hex digits: equal shapes have equal fingerprints
    /// on every build and platform (Swift's `hashValue` is seeded per process, so it cannot be
    /// stored).
    public var fingerprint: String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// How this shape (the build's) differs from the one a journal recorded, or `nil` when a run
    /// of `journal` can be resumed by this shape's scenario unchanged.
    ///
    /// Versions are not compared: two builds with the same steps resume each other's runs. The
    /// difference returned is the first, from the outermost scenario down.
    public func mismatch(journal: ScenarioShape) -> ShapeMismatch? {
        mismatch(journal: journal, path: [], progress: nil)
    }

    /// How this shape (the build's) differs from the one a journal recorded *in the part of the
    /// run the journal recorded*, or `nil` when this build can resume the run.
    ///
    /// This lets a scenario's author ship a change without stranding the runs in the field: a
    /// resumed run replays recorded steps by position and name, so only the steps up to the last
    /// one the run reached (at every level of nesting) must be the same. Steps after it —
    /// appended, inserted, removed, reordered, retyped — have no record to misplace.
    ///
    /// ```swift
    /// // v1: PhoneOp → CodeOp; v2 inserts PromoOp before CodeOp.
    /// // A run that failed in PhoneOp resumes under v2; one that reached CodeOp does not.
    /// shapeV2.mismatch(journal: shapeV1, recordedSteps: record.steps.map(\.address))
    /// ```
    ///
    /// `recordedSteps` are the addresses of every step the journal mentions (launched, skipped,
    /// replayed), as in `JournalRecord/steps`.
    public func mismatch(journal: ScenarioShape, recordedSteps: [StepAddress]) -> ShapeMismatch? {
        mismatch(journal: journal, path: [], progress: RecordedProgress(recordedSteps.map(\.path)[...]))
    }

    // MARK: - Internals

    /// The steps a journal reached at one level of a scenario, and below each of them.
    private struct RecordedProgress {
        /// The highest step position recorded at this level; `nil` when none is.
        let last: Int?
        /// What was recorded inside each step (for nested scenarios), by position.
        let inside: [Int: RecordedProgress]

        init(_ paths: ArraySlice<[StepAddress.Component]>) {
            last = paths.compactMap(\.first?.index).max()
            var byIndex: [Int: [[StepAddress.Component]]] = [:]
            for path in paths where path.count > 1 {
                byIndex[path[0].index, default: []].append(Array(path.dropFirst()))
            }
            inside = byIndex.mapValues { RecordedProgress($0[...]) }
        }
    }

    private func mismatch(journal: ScenarioShape, path: [String], progress: RecordedProgress?) -> ShapeMismatch? {
        if journal.name != name && path.isEmpty {
            return ShapeMismatch(
                path: path, reason: "the journal is of scenario \(journal.name), this build resumes \(name)")
        }
        for index in 0..<max(steps.count, journal.steps.count) {
            // Past the last recorded step nothing can be misplaced: this build's steps run on.
            if let progress, index > progress.last ?? -1 { return nil }
            // 1-based, as a run's diagram numbers its steps (`TraceSection.position`).
            let here = path + ["step \(index + 1)"]
            guard index < journal.steps.count else {
                return ShapeMismatch(
                    path: here, reason: "the journal has no such step, this build has \(steps[index].name)")
            }
            guard index < steps.count else {
                return ShapeMismatch(
                    path: here, reason: "the journal has \(journal.steps[index].name), this build has no such step")
            }
            let old = journal.steps[index]
            let new = steps[index]
            let reason: String? =
                if old.name != new.name {
                    "the journal has \(old.name), this build has \(new.name)"
                } else if old.input != new.input || old.output != new.output {
                    "\(new.name) takes \(old.input) -> \(old.output) in the journal, \(new.input) -> \(new.output) in this build"
                } else if old.purity != new.purity {
                    "\(new.name) is \(old.purity) in the journal, \(new.purity) in this build"
                } else if old.conditional != new.conditional {
                    "\(new.name) is \(old.conditional ? "" : "un")conditional in the journal, "
                        + "\(new.conditional ? "" : "un")conditional in this build"
                } else {
                    nil
                }
            if let reason { return ShapeMismatch(path: here, reason: reason) }
            switch (old.nested, new.nested) {
            case (nil, nil): break
            case (nil, .some(let nested)):
                return ShapeMismatch(
                    path: here, reason: "\(new.name) is a scenario (\(nested.name)) only in this build")
            case (.some(let nested), nil):
                return ShapeMismatch(
                    path: here, reason: "\(new.name) is a scenario (\(nested.name)) only in the journal")
            case (.some(let oldNested), .some(let newNested)):
                let nestedProgress = progress.map { $0.inside[index] ?? RecordedProgress([]) }
                if let difference = newNested.mismatch(journal: oldNested, path: here, progress: nestedProgress) {
                    return difference
                }
            }
        }
        return nil
    }

    private func append(to lines: inout [String], indent: String) {
        lines.append(indent + name + (version.map { " v\($0)" } ?? ""))
        for step in steps {
            lines.append(
                "\(indent)  \(step.index) \(step.name): \(step.input) -> \(step.output), \(step.purity)"
                    + (step.conditional ? ", conditional" : "")
                    + (step.undoneBy.map { ", undone by \($0)" } ?? ""))
            step.nested?.append(to: &lines, indent: indent + "    ")
        }
    }
}

/// The first way a journal's scenario differs from the scenario a build would resume it with.
public struct ShapeMismatch: Sendable, Hashable, CustomStringConvertible {
    /// Where the difference is, outermost first and counted from 1 as a run's diagram counts
    /// (`["step 2", "step 1"]` for the first step of a scenario nested as the second step);
    /// empty when the scenarios differ as a whole.
    public let path: [String]
    /// How the step differs, as a clause for people.
    public let reason: String

    /// One sentence, e.g. `step 3: the journal has CodeOp, this build has PromoCodeOp`.
    public var description: String {
        path.isEmpty ? reason : "\(path.joined(separator: ", ")): \(reason)"
    }
}
