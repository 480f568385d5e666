import Foundation

/// The version `opctl --version` prints.
let opctlVersion = "0.1.0"

let usage = """
    OVERVIEW: Run operations and scenarios of the Operations engine.

    USAGE: opctl <command> [options]

    OPTIONS:
      -h, --help      Show this help.
      --version       Show the version.

    """

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case nil, "-h", "--help", "help":
    FileHandle.standardOutput.write(Data(usage.utf8))
case "bench": exit(BenchCommand.run(arguments: Array(arguments.dropFirst())))
case "--version":
    FileHandle.standardOutput.write(Data("opctl \(opctlVersion)\n".utf8))
case let other?:
    FileHandle.standardError.write(Data("opctl: unknown command '\(other)'\nSee 'opctl --help'.\n".utf8))
    exit(2)
}
