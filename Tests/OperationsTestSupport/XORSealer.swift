import OperationsJournal

/// Stands in for an AEAD cipher in tests: reversible with its key, and refuses bytes sealed with
/// another, as a real cipher's authentication would.
package struct XORSealer: JournalSealer {
    package let key: UInt8

    /// Thrown by ``open(_:)`` for bytes sealed under another key.
    package struct WrongKey: Error {}

    package init(key: UInt8) { self.key = key }

    package func seal(_ plaintext: [UInt8]) throws -> [UInt8] { [key] + plaintext.map { $0 ^ key } }

    package func open(_ sealed: [UInt8]) throws -> [UInt8] {
        guard sealed.first == key else { throw WrongKey() }
        return sealed.dropFirst().map { $0 ^ key }
    }
}
