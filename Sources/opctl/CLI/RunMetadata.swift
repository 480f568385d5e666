import Foundation

/// What a rerun needs besides the journal: the backend the run used. Kept next to the journal,
/// owner-only, as `<run-id>.meta.json`.
struct RunMetadata: Codable {
    /// The `--backend` spec of the run.
    var backend: String

    static func url(for journal: URL) -> URL {
        journal.deletingPathExtension().appendingPathExtension("meta.json")
    }

    func save(next journal: URL) throws {
        let url = Self.url(for: journal)
        let data = try JSONEncoder().encode(self)
        guard FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600])
        else { throw CLIError.message("cannot write \(url.path)") }
    }

    static func load(next journal: URL) -> RunMetadata? {
        guard let data = FileManager.default.contents(atPath: url(for: journal).path) else { return nil }
        return try? JSONDecoder().decode(RunMetadata.self, from: data)
    }
}
