import OperationsRunner

/// `opctl ops`: the scenarios and operations opctl can run and draw.
enum OpsCommand: Command {
    static let name = "ops"
    static let abstract = "List the operations and scenarios"
    static let help = """
        USAGE: opctl ops

        Lists what 'opctl run' launches and 'opctl diagram' draws, one line each.
        """
    static let spec = ArgumentSpec()

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let rows = RunnableScenario.all.map { [$0.name, $0.isScenario ? "scenario" : "operation", $0.summary] }
        for line in Table.render(rows) { console.print(line) }
        return ExitStatus.success
    }
}
