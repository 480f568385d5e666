import OperationsRunner

/// opctl's name, version and top-level help; ``OpctlProgram.swift`` gives the runner the rest
/// of opctl in one ``RunnerConfiguration``. The runner's ``RunnerMain`` does the work, and
/// `main.swift` only calls it, so tests run commands in-process through ``main(_:console:)``.
enum Opctl {
    /// The program's name: in hints, the state directory's variable and folder, and messages.
    static let name = "opctl"
    static let version = "0.2.0"

    static var help: String { RunnerMain<Opctl>.help }

    /// Runs one command line (the arguments after the program name) and returns its exit status.
    static func main(_ arguments: [String], console: Console) -> Int32 {
        RunnerMain<Opctl>.main(arguments, console: console)
    }
}
