import AuthFlow
import AuthFlowDiagrams
import Foundation
import Operations
import OperationsDiagrams
import OperationsRunner

/// `opctl diagram NAME`: the sign-in catalog's message diagrams (``AuthDiagrams``), and `opctl
/// diagram --run RUN_ID`, which is the runner's ``DrawRun`` for any program's runs.
enum DiagramCommand: Command {
    static let name = "diagram"
    static let abstract = "Draw the message diagram of an operation, a scenario, or a recorded run"
    /// The catalog's names, wrapped: the list grows with every diagram added.
    private static let namesHelp = HelpText.wrapped(
        "NAME is one of: " + AuthDiagrams.names.joined(separator: ", ") + ".")

    static let help = """
        USAGE: opctl diagram NAME [--format unicode|ascii|plantuml|mermaid|svg] [--width N|auto]
               opctl diagram \(DrawRun<Opctl>.usage)
               opctl diagram --all --output DIR

        \(namesHelp)
        Each is traced from a real run against a deterministic simulator, so the drawing is what
        the code does. --run draws the trace recorded by a real 'opctl run'.

        \(DiagramOptions.fittingHelp)

        OPTIONS:
        \(options.map(\.helpLine).joined(separator: "\n"))
        """
    /// Its options, each declared once: the parser and the help lines are made from them.
    static let options =
        DiagramOptions.options + [
            DrawRun<Opctl>.runOption.described("Draw a recorded run instead"),
            DrawRun<Opctl>.depthOption.described("With --run: levels of launches drawn with their insides (default 2)"),
            DrawRun<Opctl>.stepOption.described("With --run: draw only the launches of this step (e.g. CodeOp)"),
            Opctl.configuration.stateDir, all, output,
        ]
    static let all = CommandOption("--all", "Write every diagram in every format to --output (how Diagrams/ is made)")
    static let output = CommandOption("--output", value: "DIR", "The directory for --all")
    static let spec = ArgumentSpec(options, maxPositionals: 1)

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let options = try DiagramOptions(arguments, console: console, command: name)
        if arguments.has(all) {
            guard let output = arguments.value(output) else {
                throw UsageError("--all needs --output DIR", command: name)
            }
            return try writeAll(to: URL(fileURLWithPath: output), console: console)
        }
        if let id = arguments.value(DrawRun<Opctl>.runOption) {
            guard arguments.positionals.isEmpty else {
                throw UsageError("give a NAME or --run RUN_ID, not both", command: name)
            }
            return try DrawRun<Opctl>.draw(id, arguments: arguments, console: console)
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
        console.out(try options.draw(trace(of: diagram)))
        return ExitStatus.success
    }

    /// Writes `NAME.txt`, `NAME.ascii.txt`, `NAME.puml`, `NAME.mmd` and `NAME.svg` for every diagram.
    static func writeAll(to directory: URL, console: Console) throws -> Int32 {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for diagram in AuthDiagrams.names {
            let trace = try trace(of: diagram)
            for format in DiagramFormat.allCases {
                let text = try DiagramOptions(format: format).draw(trace)
                let file = directory.appendingPathComponent("\(diagram).\(format.fileExtension)")
                try OwnerOnlyFile.write(Data(text.utf8), to: file)
                console.note("wrote \(file.path)")
            }
        }
        return ExitStatus.success
    }

    /// The traced run of a named diagram; a run that did not go as drawn is a sentence (exit 1).
    private static func trace(of diagram: String) throws -> Trace {
        do {
            return try AuthDiagrams.trace(of: diagram)
        } catch {
            throw CLIError.message("cannot draw the diagram: \(error)")
        }
    }
}
