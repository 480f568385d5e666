/// `PROGRAM ops`: the scenarios and operations the program can run, one line each, from its
/// ``RunnerConfiguration/scenarios``.
public enum ListScenarios<Program: RunnerProgram>: Command {
    /// `ops`.
    public static var name: String { "ops" }
    /// The line of the program's help.
    public static var abstract: String { "List the operations and scenarios" }
    /// The text of `PROGRAM help ops`.
    public static var help: String {
        """
        USAGE: \(Program.configuration.name) ops

        \(Program.configuration.scenariosHelp)
        """
    }
    /// No arguments.
    public static var spec: ArgumentSpec { ArgumentSpec() }

    /// Prints the name, kind and summary of each.
    public static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let rows = Program.configuration.scenarios.map {
            [$0.name, $0.isScenario ? "scenario" : "operation", $0.summary]
        }
        for line in Table.render(rows) { console.print(line) }
        return ExitStatus.success
    }
}
