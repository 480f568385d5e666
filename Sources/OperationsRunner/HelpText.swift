import Foundation

/// How a runner program's help texts are laid out, written once so that the runner's commands
/// and a program's own print usage lines and option lines alike.
public enum HelpText {
    /// The column option descriptions start at, counted from the line's start.
    public static let descriptionColumn = 25

    /// The widest usage line before it wraps.
    public static let usageWidth = 100

    /// A `USAGE:` line: the command, then its arguments wrapped at ``usageWidth`` columns, each
    /// continuation aligned under the first argument.
    ///
    /// ```swift
    /// HelpText.usage("checkout run", ["checkout", "[--cart ID]", "[--state-dir DIR]", "[--json]"])
    /// // USAGE: checkout run checkout [--cart ID] [--state-dir DIR] [--json]
    /// ```
    ///
    /// - Parameters:
    ///   - command: The program's name and the command's, as typed.
    ///   - arguments: The arguments in order, each kept whole on one line (`[--code CODE |
    ///     --code-stdin]` is one).
    /// - Returns: The lines, without a final newline.
    public static func usage(_ command: String, _ arguments: [String]) -> String {
        let start = "USAGE: \(command) ".count
        var lines: [[String]] = [[]]
        var width = start
        for argument in arguments {
            if !lines[lines.count - 1].isEmpty && width + 1 + argument.count > usageWidth {
                lines.append([])
                width = start
            }
            width += (lines[lines.count - 1].isEmpty ? 0 : 1) + argument.count
            lines[lines.count - 1].append(argument)
        }
        return usage(command, lines: lines)
    }

    /// A `USAGE:` line laid out in the lines given, each continuation aligned under the first
    /// argument: for a command whose usage reads best broken where it says.
    ///
    /// - Parameters:
    ///   - command: The command, as for ``usage(_:_:)``.
    ///   - lines: The arguments of each line, in order.
    /// - Returns: The lines, without a final newline.
    public static func usage(_ command: String, lines: [[String]]) -> String {
        let head = "USAGE: \(command) "
        let indent = String(repeating: " ", count: head.count)
        return lines.enumerated().map { ($0.offset == 0 ? head : indent) + $0.element.joined(separator: " ") }
            .joined(separator: "\n")
    }

    /// An option's line under `OPTIONS:`: the option in its column, the description after it.
    ///
    /// - Parameters:
    ///   - option: The option and its value's name, e.g. `--cart ID`.
    ///   - description: What it does; continuation lines are aligned under the description.
    /// - Returns: The line(s), without a final newline.
    public static func option(_ option: String, _ description: String) -> String {
        let name = "  \(option)"
        let pad = max(descriptionColumn - name.count, 2)
        let indent = "\n" + String(repeating: " ", count: descriptionColumn)
        return name + String(repeating: " ", count: pad)
            + description.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: indent)
    }

    /// `text` wrapped at word boundaries to ``usageWidth`` columns: for a sentence built from a
    /// list that grows (the names of a catalog), which would otherwise run off the terminal.
    public static func wrapped(_ text: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > usageWidth {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
