import Foundation
import Testing

/// Journals written by earlier builds, kept as the test target's declared resources
/// (`Fixtures/`, copied whole into the target's bundle) so that a change to how the journal
/// writes is always checked against what is already on people's disks.
enum JournalFixtures {
    /// The fixture `name` (`Fixtures/<name>.jsonl`).
    ///
    /// - Throws: When the bundle has no such fixture (a name mistyped in a test).
    static func url(_ name: String) throws -> URL {
        try #require(
            Bundle.module.url(forResource: name, withExtension: "jsonl", subdirectory: "Fixtures"),
            "no journal fixture named \(name)")
    }
}
