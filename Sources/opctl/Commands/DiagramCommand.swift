import AuthFlow
import Foundation
import Operations
import OperationsRunner

/// `opctl diagram NAME` and `opctl diagram --run RUN_ID`: message-sequence diagrams as text.
enum DiagramCommand: Command {
    static let name = "diagram"
    static let abstract = "Draw the message diagram of an operation, a scenario, or a recorded run"
    static let help = """
        USAGE: opctl diagram NAME [--format unicode|ascii|plantuml|mermaid] [--width N|auto]
               opctl diagram --run RUN_ID [--depth N] [--step NAME] [--format …] [--width N|auto] [--state-dir DIR]
               opctl diagram --all --output DIR

        NAME is one of: \(AuthDiagrams.names.joined(separator: ", ")).
        Each is traced from a real run against a deterministic simulator, so the drawing is what
        the code does. --run draws the trace recorded by a real 'opctl run'.

        Text diagrams always fit the width: when the lifelines do not, long names are abbreviated
        (with a legend under the drawing), then each step is drawn as a section of its own with
        only the lifelines it uses. Only a single message wider than the page fails, naming the
        --width that works.

        OPTIONS:
          --format FORMAT        unicode (default), ascii, plantuml or mermaid
          --width N|auto         Maximum line width of text diagrams, at least 40 (default auto:
                                 the terminal's columns, 100 when output is not a terminal)
          --run RUN_ID           Draw a recorded run instead
          --depth N              With --run: levels of launches drawn with their insides (default 2)
          --step NAME            With --run: draw only the launches of this step (e.g. CodeOp)
        \(CommonOptions.stateDirHelp)
          --all                  Write every diagram in every format to --output (how Diagrams/ is made)
          --output DIR           The directory for --all
        """
    static let spec = ArgumentSpec(
        flags: ["--all"], options: ["--format", "--width", "--run", "--depth", "--step", "--state-dir", "--output"],
        maxPositionals: 1)

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let format = try self.format(arguments.value("--format"))
        let width = try self.width(arguments.value("--width"), console: console)
        if arguments.has("--all") {
            guard let output = arguments.value("--output") else {
                throw UsageError("--all needs --output DIR", command: name)
            }
            return try writeAll(to: URL(fileURLWithPath: output), console: console)
        }
        if let id = arguments.value("--run") {
            guard arguments.positionals.isEmpty else {
                throw UsageError("give a NAME or --run RUN_ID, not both", command: name)
            }
            let depth = try number(arguments.value("--depth"), option: "--depth", default: 2, minimum: 1)
            let stateDirectory = StateDirectory.resolve(
                option: arguments.value("--state-dir"), environment: console.environment)
            let runID = try RunLookup.id(id, program: Opctl.name)
            let journal = RunStore(stateDirectory: stateDirectory).url(for: runID)
            var trace = try RunTrace.load(for: journal, runID: runID) {
                _ = try RunLookup.record(runID, in: RunStore(stateDirectory: stateDirectory), program: Opctl.name)
            }
            // A run stopped by Ctrl-C unwinds cleanly, so its trace is balanced; the drawing still
            // says where it stopped.
            let record = try? RunStore(stateDirectory: stateDirectory).load(runID)
            if record?.status == .interrupted { trace = RunTrace.markingInterrupted(trace) }
            trace = trace.limited(toDepth: depth)
            if let step = arguments.value("--step") {
                return try drawStep(step, of: trace, format: format, width: width, console: console)
            }
            console.out(
                try draw { () throws(AuthDiagrams.DiagramError) in
                    try AuthDiagrams.render(trace, format: format, width: width)
                })
            return ExitStatus.success
        }
        guard let diagram = arguments.positionals.first else {
            throw UsageError(
                "missing what to draw: one of \(AuthDiagrams.names.joined(separator: ", "))", command: name)
        }
        guard AuthDiagrams.names.contains(diagram) else {
            throw UsageError(
                "unknown diagram '\(ParsedArguments.clip(diagram))' (one of \(AuthDiagrams.names.joined(separator: ", ")))",
                command: name)
        }
        console.out(
            try draw { () throws(AuthDiagrams.DiagramError) in
                try AuthDiagrams.render(diagram, format: format, width: width)
            })
        return ExitStatus.success
    }

    /// Writes `NAME.txt`, `NAME.ascii.txt`, `NAME.puml` and `NAME.mmd` for every diagram.
    static func writeAll(to directory: URL, console: Console) throws -> Int32 {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for diagram in AuthDiagrams.names {
            let trace = try draw { () throws(AuthDiagrams.DiagramError) in try AuthDiagrams.trace(of: diagram) }
            for format in AuthDiagrams.Format.allCases {
                let text = try draw { () throws(AuthDiagrams.DiagramError) in
                    try AuthDiagrams.render(trace, format: format)
                }
                let file = directory.appendingPathComponent("\(diagram).\(format.fileExtension)")
                try OwnerOnlyFile.write(Data(text.utf8), to: file)
                console.note("wrote \(file.path)")
            }
        }
        return ExitStatus.success
    }

    /// `--step NAME`: every launch of that step, at any depth of nested scenarios, each drawn
    /// on its own, in order.
    private static func drawStep(
        _ step: String, of trace: Trace, format: AuthDiagrams.Format, width: Int, console: Console
    ) throws -> Int32 {
        let matching = trace.sections(named: step)
        guard !matching.isEmpty else {
            throw UsageError(
                "the run has no step '\(ParsedArguments.clip(step))' "
                    + "(its steps: \(trace.stepNames.joined(separator: ", ")))",
                command: name)
        }
        for (number, section) in matching.enumerated() {
            if matching.count > 1 {
                let frames = section.frames.isEmpty ? "" : " in " + section.frames.joined(separator: " / ")
                console.print("\(number == 0 ? "" : "\n")launch \(number + 1) of \(matching.count)\(frames)")
            }
            console.out(
                try draw { () throws(AuthDiagrams.DiagramError) in
                    try AuthDiagrams.render(section, format: format, width: width)
                })
        }
        return ExitStatus.success
    }

    private static func draw<T>(_ body: () throws(AuthDiagrams.DiagramError) -> T) throws -> T {
        do {
            return try body()
        } catch .rendering(.diagramTooNarrow(let required, let available)) {
            throw CLIError.message(
                "cannot draw the diagram in \(available) columns: one message needs \(required); use --width \(required) (or a smaller --depth)"
            )
        } catch {
            throw CLIError.message("cannot draw the diagram: \(error)")
        }
    }

    /// `--width N` or `auto` (the default): the terminal's columns, or 100 off a terminal.
    private static func width(_ text: String?, console: Console) throws -> Int {
        guard let text, text != "auto" else { return max(console.outputColumns ?? 100, 40) }
        return try number(text, option: "--width", default: 100, minimum: 40)
    }

    private static func format(_ text: String?) throws -> AuthDiagrams.Format {
        guard let text else { return .unicode }
        guard let format = AuthDiagrams.Format(rawValue: text) else {
            throw UsageError("--format must be unicode, ascii, plantuml or mermaid", command: name)
        }
        return format
    }

    private static func number(_ text: String?, option: String, default value: Int, minimum: Int) throws -> Int {
        guard let text else { return value }
        guard let number = Int(text), number >= minimum, number <= 10_000 else {
            let auto = option == "--width" ? "auto or " : ""
            throw UsageError("\(option) must be \(auto)a whole number from \(minimum) to 10000", command: name)
        }
        return number
    }
}
