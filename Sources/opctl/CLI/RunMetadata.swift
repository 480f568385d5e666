import Foundation
import OperationsRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a rerun needs besides the journal: the backend the run used and the terms decision given
/// on its command line. Kept next to the journal, owner-only, as `<run-id>.meta.json`.
struct RunMetadata: Codable {
    /// The `--backend` spec of the run.
    var backend: String
    /// `--accept-terms` or `--decline-terms`, if one was given (absent in files of older runs).
    var terms: TerminalScreens.TermsDecision?

    static func url(for journal: URL) -> URL {
        journal.deletingPathExtension().appendingPathExtension("meta.json")
    }

    func save(next journal: URL) throws {
        let url = Self.url(for: journal)
        let data = try JSONEncoder().encode(self)
        // Written whole to an owner-only temporary file and renamed, so a rerun never reads half of it.
        try OwnerOnlyFile.write(data, to: url)
    }

    /// The same, as the settings a journal's header records (durable with the header).
    static func settings(backend: String, terms: TerminalScreens.TermsDecision?) -> [String: String] {
        var settings = ["backend": backend]
        settings["terms"] = terms?.rawValue
        return settings
    }

    init(backend: String, terms: TerminalScreens.TermsDecision?) {
        self.backend = backend
        self.terms = terms
    }

    /// Reads the settings recorded in a journal's header; `nil` when the header has none
    /// (journals from before settings were recorded keep the sidecar file).
    init?(settings: [String: String]) {
        guard let backend = settings["backend"] else { return nil }
        self.backend = backend
        self.terms = settings["terms"].flatMap(TerminalScreens.TermsDecision.init(rawValue:))
    }

    static func load(next journal: URL) -> RunMetadata? {
        guard let data = FileManager.default.contents(atPath: url(for: journal).path) else { return nil }
        return try? JSONDecoder().decode(RunMetadata.self, from: data)
    }
}
