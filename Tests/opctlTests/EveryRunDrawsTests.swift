import Foundation
import Operations
import OperationsDiagrams
import OperationsJournal
import Testing

@testable import OperationsRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Issue 36, point 2: every run opctl can record is drawn — in every format, at depths 1 to 6
/// and step by step — without an error. The runs are made in this process through opctl's own
/// commands (one killed in a process of its own), with the endings a person meets: signed in,
/// a wrong code then the input gone at the second prompt, a terms change handled by the app's
/// reaction, retries, a run cancelled by a sign-out elsewhere, a killed run and its rerun, the
/// one-operation runs.
@Suite(.serialized)
struct EveryRunDrawsTests {
    private static let phone = "+7 999 123-45-67"
    private static let formats = ["unicode", "ascii", "plantuml", "mermaid"]

    /// A state directory with runs of every ending, made once for the whole suite.
    private static let runs: Result<[(ending: String, id: String)], any Error> = Result { try makeRuns() }

    private static func makeRuns() throws -> [(ending: String, id: String)] {
        let sandbox = try Sandbox()
        // Kept for the suite's life: the sandbox's folder goes when it is released.
        keptSandbox.withLock { $0 = sandbox }
        var made: [(String, String)] = []
        var opctl = InProcessOpctl(stateDirectory: sandbox.stateDirectory)
        func record(_ ending: String, _ result: InProcessOpctl.Result) throws {
            let id = try #require(runID(in: result.stderr), "\(ending): \(result)")
            made.append((ending, id))
        }

        // Killed while the code is checked (a request in flight), in a process of its own, then
        // rerun here: a cut session and the session the rerun adds.
        let killed = try sandbox.start([
            "run", "auth", "--phone", phone, "--accept-terms", "--code", "123456", "--backend", "sim:?latency=300",
        ])
        _ = try killed.waitForStderr(containing: "SMS sent")
        killed.killNow()
        let stopped = try killed.wait()
        let killedID = try #require(runID(in: stopped.stderr) ?? newestRun(in: sandbox), "\(stopped)")
        _ = opctl.run("rerun", killedID, "--code", "123456")
        made.append(("killed while the code was checked, then rerun", killedID))

        // Signed out first, so that the app signs in and its reaction to the terms change runs.
        try record("signed out", opctl.run("run", "sign-out"))
        // The embedded simulator remembers, in the state directory, that the number accepted the
        // terms; this run draws a sign-in that shows them and then their change, so it meets a
        // simulator that has not seen the number.
        try? FileManager.default.removeItem(at: sandbox.stateDirectory.appendingPathComponent("simulator"))
        try record(
            "app: terms changed as SaveTokenOp launched",
            opctl.run(
                "run", "app", "--phone", phone, "--accept-terms", "--code", "123456", "--event",
                "terms-changed@SaveTokenOp"))
        try record("TermsOfUseOp alone", opctl.run("run", "TermsOfUseOp", "--accept-terms"))
        try record(
            "app: signed out elsewhere, cancelled",
            opctl.run("run", "app", "--event", "signed-out-elsewhere@CheckSessionOp"))
        try record(
            "signed in", opctl.run("run", "auth", "--phone", phone, "--accept-terms", "--code", "123456"))
        try record(
            "phone retried twice",
            opctl.run(
                "run", "auth", "--phone", phone, "--accept-terms", "--code", "123456", "--backend",
                "sim:?fail=phone:2"))
        try record("terms declined: cancelled", opctl.run("run", "auth", "--phone", phone, "--decline-terms"))
        try record("PhoneOp alone", opctl.run("run", "PhoneOp", "--phone", phone))

        // At a terminal: a wrong code, then no answer at the second prompt (as Ctrl-C there);
        // once as it stands, once with a rerun asking for the code again in a second session.
        opctl.inputIsTerminal = true
        for rerun in [false, true] {
            opctl.stdinLines = [phone, "y", "111111"]
            try record(
                "wrong code, then no answer at the second prompt\(rerun ? ", then rerun" : "")",
                opctl.run("run", "auth"))
            if rerun {
                opctl.stdinLines = ["123456"]
                _ = opctl.run("rerun", made[made.count - 1].1)
            }
        }
        return made
    }

    private static let keptSandbox = LockedBox<Sandbox?>(nil)

    /// The run the state directory holds newest, for a process killed before it printed its id.
    private static func newestRun(in sandbox: Sandbox) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sandbox.runsDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".trace.jsonl") }.map { String($0.dropLast(".trace.jsonl".count)) }
            .max()
    }

    private static var sandbox: Sandbox? { keptSandbox.withLock { $0 } }

    @Test func everyEndingIsRecorded() throws {
        let runs = try Self.runs.get()
        #expect(Set(runs.map(\.id)).count == 11, "\(runs)")
    }

    /// The runs are what they say: the killed one is cut off and rerun, the app's reaction
    /// launched TermsOfUseOp inside a scenario of the same name.
    @Test func theRunsHoldTheirEndings() throws {
        let runs = try Self.runs.get()
        let sandbox = try #require(Self.sandbox)
        let opctl = InProcessOpctl(stateDirectory: sandbox.stateDirectory)
        func drawn(_ ending: String, _ options: String...) throws -> String {
            let id = try #require(runs.first { $0.ending.hasPrefix(ending) }?.id, "\(ending)")
            let result = opctl.run(["diagram", "--run", id, "--width", "200"] + options)
            #expect(result.status == 0, "\(result)")
            return result.stdout
        }
        let killed = try drawn("killed", "--depth", "4")
        #expect(killed.contains("cut off") && killed.contains("rerun 1 (session 2 of 2)"), "\(killed)")
        let reaction = try drawn("app: terms changed", "--step", "TermsOfUseOp", "--depth", "3")
        #expect(reaction.contains("launch 2 of 2") && reaction.contains("acceptTerms(v2)"), "\(reaction)")
        let wrongCode = try drawn("wrong code, then no answer at the second prompt", "--step", "CodeOp")
        #expect(wrongCode.contains("launch 2 of 2"), "\(wrongCode)")
    }

    /// A trace file damaged at rest beside a sound journal: lines gone from its middle, a
    /// line garbled, its end lost. The run is still drawn, in every format, at every depth and
    /// by every step, and the drawing says what is missing.
    @Test(arguments: ["a line lost and one garbled", "its end lost"])
    func aDamagedTraceBesideASoundJournalIsDrawnAndSaysWhatIsMissing(damage: String) throws {
        let runs = try Self.runs.get()
        let sandbox = try #require(Self.sandbox)
        let signedIn = try #require(runs.first { $0.ending == "signed in" }?.id)
        // A copy of the run under a new id, its trace damaged.
        let id = "20000101-000000-000-\(damage.count == 27 ? "0000aaaa" : "0000bbbb")"
        for suffix in [".jsonl", ".jsonl.synced", ".trace.jsonl"] {
            let from = sandbox.runsDirectory.appendingPathComponent(signedIn + suffix)
            let to = sandbox.runsDirectory.appendingPathComponent(id + suffix)
            try? FileManager.default.removeItem(at: to)
            try FileManager.default.copyItem(at: from, to: to)
        }
        let traceURL = sandbox.runsDirectory.appendingPathComponent(id + ".trace.jsonl")
        var lines = try String(contentsOf: traceURL, encoding: .utf8).split(separator: "\n").map(String.init)
        let launches = lines.indices.filter { lines[$0].contains(#""kind":"launch""#) }
        if damage == "its end lost" {
            lines = Array(lines.prefix(lines.count / 2))
        } else {
            lines[launches[2]] = "{\"kind\":\"laun"
            lines.remove(at: launches[1])
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: traceURL)

        let opctl = InProcessOpctl(stateDirectory: sandbox.stateDirectory)
        let said = damage == "its end lost" ? "the journal records the run as succeeded" : "unreadable"
        // PlantUML, whose notes are not wrapped.
        let whole = opctl.run("diagram", "--run", id, "--depth", "6", "--format", "plantuml")
        #expect(whole.status == 0, "\(whole)")
        #expect(whole.stdout.contains(said), "\(whole.stdout)")
        for format in Self.formats {
            for depth in 1...6 {
                let drawn = opctl.run("diagram", "--run", id, "--format", format, "--depth", "\(depth)")
                #expect(drawn.status == 0 && !drawn.stdout.isEmpty, "\(format) depth \(depth): \(drawn)")
                #expect(Self.structuralProblem(drawn.stdout, format: format) == nil, "\(drawn.stdout)")
            }
            for step in ["PhoneOp", "VerificationScenario", "TermsOfUseOp", "CodeOp", "SaveTokenOp"] {
                let drawn = opctl.run("diagram", "--run", id, "--format", format, "--step", step)
                // A step the damage took away is a usage error naming the steps there are.
                #expect(drawn.status == 0 || drawn.status == 2, "\(format) step \(step): \(drawn)")
                if drawn.status == 0 {
                    #expect(Self.structuralProblem(drawn.stdout, format: format) == nil, "\(drawn.stdout)")
                }
            }
        }
    }

    @Test(arguments: 0..<11)
    func everyRunDrawsInEveryFormatAtEveryDepthAndStep(run index: Int) throws {
        let runs = try Self.runs.get()
        guard index < runs.count, let sandbox = Self.sandbox else { return }
        let (ending, id) = runs[index]
        let opctl = InProcessOpctl(stateDirectory: sandbox.stateDirectory)
        let trace = try RunTrace.loadRecorded(for: sandbox.journal(id), runID: RunID(validating: id)) {}
            .markingSessions()
        let steps = trace.stepNames
        #expect(!steps.isEmpty, "\(ending): no steps")
        for format in Self.formats {
            var drawings: [(String, [String])] = (1...6).map { ("depth \($0)", ["--depth", "\($0)"]) }
            drawings += steps.map { ("step \($0)", ["--step", $0]) }
            if format == "unicode" {
                // A narrow terminal and a wide one (ASCII has the same geometry).
                for width in ["60", "160"] {
                    drawings += (1...6).map { ("width \(width), depth \($0)", ["--depth", "\($0)", "--width", width]) }
                }
            }
            for (what, options) in drawings {
                let width = options.contains("--width") ? [] : ["--width", "100"]
                let drawn = opctl.run(["diagram", "--run", id, "--format", format] + width + options)
                let context = "\(ending), \(format), \(what)"
                #expect(drawn.status == 0, "\(context): \(drawn)")
                #expect(!drawn.stdout.isEmpty, "\(context)")
                // A run opctl recorded draws as recorded: nothing to mend.
                #expect(
                    !drawn.stdout.contains(Trace.unbalancedPrefix) && !drawn.stdout.contains("trace cut off here"),
                    "\(context):\n\(drawn.stdout)")
                #expect(
                    Self.structuralProblem(drawn.stdout, format: format) == nil,
                    "\(context): \(Self.structuralProblem(drawn.stdout, format: format) ?? "")\n\(drawn.stdout)")
            }
        }
    }

    /// What is unbalanced in PlantUML or Mermaid source: a block (`alt`, `loop`, `group`, …,
    /// Mermaid's `rect`) not closed by its `end`, an `end` or `else` outside one, a note block
    /// not closed, an activation deactivated more often than activated or left open, and the
    /// document's own start and end. `nil` when balanced, and for the text formats.
    static func structuralProblem(_ source: String, format: String) -> String? {
        guard format == "plantuml" || format == "mermaid" else { return nil }
        let lines = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let plantUML = format == "plantuml"
        if plantUML {
            guard lines.first == "@startuml", lines.last == "@enduml" else { return "not @startuml … @enduml" }
        } else if lines.first != "sequenceDiagram" {
            return "does not start with sequenceDiagram"
        }
        let openers =
            plantUML
            ? ["alt", "opt", "loop", "group", "par", "break", "critical"]
            : [
                "alt", "opt", "loop", "par", "rect", "break", "critical",
            ]
        var blocks: [String] = []
        var inNote = false
        var active: [String: Int] = [:]
        for line in lines {
            let word = String(line.prefix { $0 != " " })
            if inNote {
                if line == "end note" { inNote = false }
                continue
            }
            if plantUML, word == "note", !line.contains(":") {
                inNote = true
                continue
            }
            if openers.contains(word) {
                blocks.append(word)
            } else if word == "else" {
                guard blocks.last == "alt" else { return "else outside alt: \(line)" }
            } else if word == "and" {
                guard blocks.last == "par" else { return "and outside par: \(line)" }
            } else if line == "end" {
                guard blocks.popLast() != nil else { return "end closes no block" }
            } else if word == "activate" {
                active[String(line.dropFirst("activate ".count)), default: 0] += 1
            } else if word == "deactivate" {
                let name = String(line.dropFirst("deactivate ".count))
                active[name, default: 0] -= 1
                if active[name, default: 0] < 0 { return "\(name) deactivated more often than activated" }
            }
        }
        if inNote { return "a note never ends" }
        if let open = blocks.last { return "a \(open) block never ends" }
        if let open = active.first(where: { $0.value != 0 }) { return "\(open.key) left active" }
        return nil
    }
}

/// A value behind a lock, for the suite's shared sandbox.
private final class LockedBox<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
