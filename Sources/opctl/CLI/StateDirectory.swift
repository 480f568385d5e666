import Foundation

/// Where opctl keeps its runs and the saved sign-in: `--state-dir`, else `$OPCTL_STATE_DIR`,
/// else `$XDG_STATE_HOME/opctl`, else `~/.local/state/opctl`. Created 0700.
enum StateDirectory {
    /// Resolves the directory without creating it.
    static func resolve(option: String?, environment: [String: String]) -> URL {
        if let option, !option.isEmpty { return URL(fileURLWithPath: option) }
        if let explicit = environment["OPCTL_STATE_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("opctl")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/state/opctl")
    }

    /// Creates the directory (owner-only) if needed and checks that it can be written.
    ///
    /// - Throws: ``CLIError/stateDirectory(_:_:)`` in words a user can act on.
    static func prepare(_ url: URL) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(
                at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CLIError.stateDirectory(url.path, "cannot be created (\(reason(error)))")
        }
        guard manager.isWritableFile(atPath: url.path) else {
            throw CLIError.stateDirectory(url.path, "is not writable")
        }
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        return underlying?.localizedDescription ?? error.localizedDescription
    }
}
