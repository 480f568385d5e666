import Foundation
import OperationsRunner

// The runner's pieces take the program's name where they print it or derive from it; these
// bind them to opctl's, so `diagram` and the tests say `StateDirectory.resolve(option:environment:)`
// and `error.hint` without repeating the name.

extension UsageError {
    /// Where to look for the right usage: `See 'opctl COMMAND --help'.`, or the custom hint.
    var hint: String { hint(program: Opctl.name) }
}

extension StateDirectory {
    /// opctl's state directory: `--state-dir`, else `$OPCTL_STATE_DIR`, else
    /// `$XDG_STATE_HOME/opctl`, else `~/.local/state/opctl`.
    static func resolve(option: String?, environment: [String: String]) -> URL {
        resolve(option: option, environment: environment, program: Opctl.name)
    }
}
