public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a runner program keeps its runs (and whatever else it saves, like opctl's sign-in):
/// `--state-dir`, else `$PROGRAM_STATE_DIR`, else `$XDG_STATE_HOME/PROGRAM`, else
/// `~/.local/state/PROGRAM`. Created 0700.
public enum StateDirectory {
    /// The environment variable that names the directory: `OPCTL_STATE_DIR` for `opctl`, the
    /// program's name upper-cased with dashes as underscores.
    public static func environmentVariable(program: String) -> String {
        program.uppercased().replacingOccurrences(of: "-", with: "_") + "_STATE_DIR"
    }

    /// Resolves the directory without creating it, from the `--state-dir` value if given, the
    /// environment, and the program's name (which names the variable and the folder).
    public static func resolve(option: String?, environment: [String: String], program: String) -> URL {
        if let option, !option.isEmpty { return URL(fileURLWithPath: option) }
        if let explicit = environment[environmentVariable(program: program)], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent(program)
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) }
            // NSHomeDirectory, not FileManager.homeDirectoryForCurrentUser: the latter exists on
            // macOS and Linux only; on iOS, tvOS, watchOS and visionOS this is the app's container.
            ?? URL(fileURLWithPath: NSHomeDirectory())
        return home.appendingPathComponent(".local/state/\(program)")
    }

    /// Creates the directory (owner-only) if needed and checks that it can be written.
    ///
    /// - Throws: ``CLIError/stateDirectory(_:_:)`` in words a user can act on, such as "cannot be
    ///   created: /home/me/file is not a directory".
    public static func prepare(_ url: URL) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CLIError.stateDirectory(url.path, "is not a directory") }
            // Made owner-only when it is this user's: one made by hand or by an older version may
            // be readable by others, and the journals in it hold what each run was given.
            var status = stat()
            if stat(url.path, &status) == 0, status.st_uid == getuid(), status.st_mode & 0o077 != 0 {
                _ = chmod(url.path, status.st_mode & 0o700)
            }
        } else {
            try create(url)
        }
        guard manager.isWritableFile(atPath: url.path) else {
            throw CLIError.stateDirectory(url.path, "is not writable")
        }
    }

    /// `mkdir -p` with mode 0700, naming the real obstacle (Foundation's error on Linux only says
    /// "NSCocoaErrorDomain error 512").
    private static func create(_ url: URL) throws {
        let manager = FileManager.default
        var missing: [URL] = []
        var existing = url.standardizedFileURL
        while !manager.fileExists(atPath: existing.path), existing.path != "/" {
            missing.append(existing)
            existing = existing.deletingLastPathComponent()
        }
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: existing.path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw CLIError.stateDirectory(url.path, "cannot be created: \(existing.path) is not a directory")
        }
        for directory in missing.reversed() where mkdir(directory.path, 0o700) != 0 {
            let code = errno
            guard code != EEXIST else { continue }  // another process made it just now
            throw CLIError.stateDirectory(
                url.path, "cannot be created: \(directory.path): \(String(cString: strerror(code)))")
        }
    }
}
