import Operations

/// Seals the secrets a journal must not keep in clear, with a key the application holds.
///
/// A step's input or output that is or holds a ``JournalConfidential`` value (an access token,
/// a card number) never reaches a journal in clear. With a sealer, the journal stores each
/// confidential value sealed — alone, in its place, when it sits inside a clear value — and a
/// resumed run opens it again; without one, the journal withholds it, and a resumed run launches
/// that step again rather than replaying it — with the same idempotency key, so a backend that
/// honours keys answers the repeat with its first answer instead of acting twice.
///
/// A sealer that throws is not worked around: the value is left out of the file and the
/// journal's error becomes ``JournalError/sealingFailed(_:type:reason:)``, so the run does not
/// go on as if its journal held the event.
///
/// The engine ships no cipher: the toolchain has none on Linux, and the key belongs in the
/// platform's keystore. On Apple platforms, for example, CryptoKit's `AES.GCM` with a key kept
/// in the Keychain:
///
/// ```swift
/// struct KeychainSealer: JournalSealer {
///     let key: SymmetricKey
///     func seal(_ plaintext: [UInt8]) throws -> [UInt8] {
///         Array(try AES.GCM.seal(plaintext, using: key).combined!)
///     }
///     func open(_ sealed: [UInt8]) throws -> [UInt8] {
///         Array(try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key))
///     }
/// }
/// ```
///
/// Contract: `open(seal(x)) == x`, and `seal` reveals nothing of `x` without the key; `open`
/// throws for bytes it did not seal (another key, damage), which a resumed run reports as the
/// step's value not being readable. `seal` is called under the journal's lock as each event is
/// recorded: keep it quick and never let it wait for the thread that runs the scenario.
public protocol JournalSealer: Sendable {
    /// Seals the JSON of one value.
    func seal(_ plaintext: [UInt8]) throws -> [UInt8]
    /// Opens what ``seal(_:)`` made.
    func open(_ sealed: [UInt8]) throws -> [UInt8]
}
