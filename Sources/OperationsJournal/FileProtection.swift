public import Foundation

/// The data-protection class of a run store's files on iOS, iPadOS, tvOS, watchOS and visionOS:
/// whether a journal can be written while the device is locked.
///
/// A file with ``complete`` protection cannot be opened or written from about ten seconds after
/// the device locks until it is unlocked, so a step that finishes while the phone is in a pocket
/// could not write its line, and the run would halt (`RunHalted`). A file takes its directory's
/// class when it is created, and an app's container defaults to
/// ``completeUntilFirstUserAuthentication`` unless the app's entitlement says otherwise.
///
/// Pick ``completeUnlessOpen`` for journals an app writes in the background: a journal keeps its
/// file open for the whole run, so the run can go on writing after the device locks, while a file
/// no run has open cannot be read until the next unlock. Keep the container's default
/// (``inherited``) when runs never go on while locked.
///
/// On other platforms (Linux; macOS, which has no per-file data protection for apps) every class
/// is accepted and changes nothing: the same code builds everywhere.
public struct FileProtection: Sendable, Hashable, CustomStringConvertible {
    /// The class's name, as Foundation's `FileProtectionType` spells it.
    public let description: String

    /// Sets nothing: files take their directory's class (the default).
    public static let inherited = FileProtection(description: "inherited")
    /// No protection: readable and writable whenever the device is on.
    public static let none = FileProtection(description: "none")
    /// Readable and writable only while the device is unlocked.
    public static let complete = FileProtection(description: "complete")
    /// Files open before the device locks stay writable; others wait for an unlock. The class for
    /// runs that go on in the background.
    public static let completeUnlessOpen = FileProtection(description: "completeUnlessOpen")
    /// Readable and writable once the person has unlocked the device after it started.
    public static let completeUntilFirstUserAuthentication = FileProtection(
        description: "completeUntilFirstUserAuthentication")

    /// Gives the file or directory at `url` this class; files created in a directory afterwards
    /// take it too. ``inherited`` and platforms without data protection change nothing.
    ///
    /// - Parameter url: A file or directory that exists.
    /// - Throws: The error of Foundation's `FileManager.setAttributes(_:ofItemAtPath:)`.
    public func apply(to url: URL) throws {
        // Data protection classes exist on the iOS family only; elsewhere this is a no-op.
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            let types: [FileProtection: FileProtectionType] = [
                .none: .none, .complete: .complete, .completeUnlessOpen: .completeUnlessOpen,
                .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication,
            ]
            guard let type = types[self] else { return }
            try FileManager.default.setAttributes([.protectionKey: type], ofItemAtPath: url.path)
        #endif
    }
}
