import Foundation
import Operations

/// `opctl runs`: the runs in the state directory, newest last.
enum RunsCommand: Command {
    static let name = "runs"
    static let abstract = "List the journaled runs"
    static let help = """
        USAGE: opctl runs [--state-dir DIR] [--json]

        Lists the runs with their id, scenario, status (succeeded, failed, cancelled, interrupted,
        running), failed step and start time. A journal that cannot be read is listed as damaged;
        with --json it is left out of the array and named on standard error instead.

        OPTIONS:
        \(CommonOptions.stateDirHelp)
          --json                 Print a JSON array of objects: id, scenario, status, failedStep, startedAt
        """
    static let spec = ArgumentSpec(flags: ["--json"], options: ["--state-dir"])

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        let stateDirectory = StateDirectory.resolve(option: arguments.value("--state-dir"), environment: console.environment)
        let entries: [RunStore.Entry]
        do {
            entries = try RunStore(stateDirectory: stateDirectory).runs()
        } catch {
            throw CLIError.message("cannot list runs: \(error)")
        }
        if arguments.has("--json") {
            // Every object keeps the promised keys and statuses; a damaged journal has neither a
            // scenario nor a start time, so it is reported beside the array, not in it.
            let objects: [[String: Any]] = entries.compactMap { entry in
                switch entry.record {
                case .success(let record):
                    var object: [String: Any] = [
                        "id": entry.id.description, "scenario": record.scenario, "status": record.status.rawValue,
                        "startedAt": Self.timestamp(record.startedAt ?? record.createdAt),
                        "failedStep": record.failedStep?.name ?? NSNull(),
                    ]
                    object["finishedAt"] = record.finishedAt.map(Self.timestamp)
                    return object
                case .failure(let error):
                    console.note("opctl: left out run \(entry.id), its journal cannot be read: \(error)")
                    return nil
                }
            }
            console.print(JSONText.encode(objects))
            return ExitStatus.success
        }
        guard !entries.isEmpty else {
            console.note("No runs yet in \(stateDirectory.path). Start one with 'opctl run auth'.")
            return ExitStatus.success
        }
        var rows = [["RUN", "SCENARIO", "STATUS", "FAILED STEP", "STARTED"]]
        for entry in entries {
            switch entry.record {
            case .success(let record):
                rows.append([
                    entry.id.description, record.scenario, record.status.rawValue, record.failedStep?.name ?? "-",
                    Self.timestamp(record.startedAt ?? record.createdAt),
                ])
            case .failure:
                rows.append([entry.id.description, "?", "damaged", "-", "-"])
            }
        }
        for line in Table.render(rows) { console.print(line) }
        return ExitStatus.success
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// Plain aligned columns, no trailing spaces.
enum Table {
    static func render(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
