public import Operations
public import OperationsDiagrams

/// How a command draws a diagram: `--format` and `--width`, parsed alike by every command that
/// draws (the runner's ``DrawRun`` and a program's own catalog of named diagrams), and the one
/// sentence a user reads when a drawing does not fit.
public struct DiagramOptions: Sendable {
    /// The format to draw in: `--format`, unicode when it is not given.
    public var format: DiagramFormat
    /// The widest line of a text diagram, and the columns an SVG's labels wrap to: `--width N`,
    /// or with `auto` (the default) the terminal's columns, 100 when standard output is not a
    /// terminal.
    public var width: Int

    /// `--format` and `--width`, declared once for every drawing command's parser and help.
    public static let options = [formatOption, widthOption]
    static let formatOption = CommandOption(
        "--format", value: "FORMAT", "unicode (default), ascii, plantuml, mermaid or svg")
    static let widthOption = CommandOption(
        "--width", value: "N|auto",
        "Maximum line width of text and SVG diagrams, at least 40 (default auto:\n"
            + "the terminal's columns, 100 when output is not a terminal)")

    /// The help lines of ``options``, as every drawing command lists them.
    public static var help: String { options.map(\.helpLine).joined(separator: "\n") }

    /// The paragraph of a drawing command's help that says how a text diagram fits its width.
    public static let fittingHelp = """
        Text diagrams always fit the width: when the lifelines do not, long names are abbreviated
        (with a legend under the drawing), then each step is drawn as a section of its own with
        only the lifelines it uses. Only a single message wider than the page fails, naming the
        --width that works.
        """

    /// Creates options from their values, each as its property says.
    public init(format: DiagramFormat = .unicode, width: Int = 100) {
        self.format = format
        self.width = width
    }

    /// Reads `--format` and `--width` from `arguments` (whose spec must accept them) for
    /// `command`; `--width auto` draws for the `console`'s terminal width.
    ///
    /// - Throws: ``UsageError`` for an unknown format or a width that is not `auto` or 40-10000.
    public init(_ arguments: ParsedArguments, console: Console, command: String) throws {
        if let text = arguments.value(Self.formatOption) {
            guard let format = DiagramFormat(rawValue: text) else {
                throw UsageError("--format must be unicode, ascii, plantuml, mermaid or svg", command: command)
            }
            self.format = format
        } else {
            format = .unicode
        }
        if let text = arguments.value(Self.widthOption), text != "auto" {
            width = try Self.number(text, option: Self.widthOption.name, default: 100, minimum: 40, command: command)
        } else {
            width = max(console.outputColumns ?? 100, 40)
        }
    }

    /// Draws a whole trace; one a renderer cannot balance is drawn as far as it can be, with
    /// what could not be drawn marked (`Trace.drawable()`).
    ///
    /// - Throws: ``CLIError`` with the sentence a user reads: the `--width` that would fit.
    public func draw(_ trace: Trace) throws -> String {
        try drawing(trace, marked: trace.drawable, format.render(_:width:))
    }

    /// Draws one step of a run (`Trace/sections(named:)`).
    ///
    /// - Throws: ``CLIError`` with the sentence a user reads, as drawing a whole trace does.
    public func draw(_ section: TraceSection) throws -> String {
        try drawing(section, marked: section.drawable, format.render(_:width:))
    }

    /// Turns a renderer's refusal into the sentence a user reads (exit status 1).
    public static func failure(_ error: TraceError) -> CLIError {
        if case .diagramTooNarrow(let required, let available) = error {
            return .message(
                "cannot draw the diagram in \(available) columns: one message needs \(required); use --width \(required) (or a smaller --depth)"
            )
        }
        return .message("cannot draw the diagram: \(error)")
    }

    /// A whole number option within bounds, or `default` when it is not given.
    static func number(_ text: String?, option: String, default value: Int, minimum: Int, command: String) throws
        -> Int
    {
        guard let text else { return value }
        guard let number = Int(text), number >= minimum, number <= 10_000 else {
            let auto = option == "--width" ? "auto or " : ""
            throw UsageError("\(option) must be \(auto)a whole number from \(minimum) to 10000", command: command)
        }
        return number
    }

    /// What `render` draws of `drawn`; what a renderer cannot balance is drawn as far as it
    /// goes, and marked (`marked`); a refusal in the sentence a user reads (``failure(_:)``).
    private func drawing<Drawn>(
        _ drawn: Drawn, marked: () -> Drawn, _ render: (Drawn, Int) throws(TraceError) -> String
    ) throws -> String {
        do throws(TraceError) {
            do throws(TraceError) {
                return try render(drawn, width)
            } catch {
                if case .diagramTooNarrow = error { throw error }
                return try render(marked(), width)
            }
        } catch {
            throw Self.failure(error)
        }
    }
}
