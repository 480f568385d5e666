import Foundation
import OperationsJournal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole-process cases: the built `opctl` beside this benchmark, started and waited for, as a
/// user meets it. What a user feels of the engine is these figures, not the nanoseconds of the
/// other cases.
enum ProcessCases {
    /// The `opctl` executable of the same build, if there is one beside this program.
    static let opctl: URL? = {
        guard let own = Bundle.main.executableURL else { return nil }
        let sibling = own.deletingLastPathComponent().appendingPathComponent("opctl")
        return FileManager.default.isExecutableFile(atPath: sibling.path) ? sibling : nil
    }()

    /// `process.version`: `opctl --version`, the floor of any command.
    static let version = command(["--version"])
    /// `process.signIn`: the README's main command, one scripted sign-in against the embedded
    /// simulated backend, journal and trace written.
    static let signIn = command(["run", "auth", "--phone", "+7 999 123-45-67", "--accept-terms", "--code", "123456"])
    /// `process.explore`: `opctl explore auth --max-faults 2`, the command CI runs for each flow.
    static let exploring = command(["explore", "auth", "--max-faults", "2"])

    /// A body running `opctl` with `arguments` in a state directory of this process's own.
    private static func command(_ arguments: [String]) -> @Sendable (Int) -> Void {
        { iterations in
            for _ in 0..<iterations { run(arguments, stateDirectory: scratch) }
        }
    }

    /// `process.runs`: `opctl runs` over the state directory of ``ScaleFixture`` (50,000 runs).
    static let listing: @Sendable (Int) -> Void = { iterations in
        let directory = ScaleFixture.stateDirectory
        for _ in 0..<iterations { run(["runs"], stateDirectory: directory) }
    }

    /// `process.show`: `opctl show ID` of a failed run among the 50,000 of ``ScaleFixture``.
    static let showing: @Sendable (Int) -> Void = { iterations in
        let directory = ScaleFixture.stateDirectory
        for _ in 0..<iterations { run(["show", ScaleFixture.failedRun.rawValue], stateDirectory: directory) }
    }

    /// `process.check`: `opctl check` over the 50,000 runs of ``ScaleFixture``.
    static let checking: @Sendable (Int) -> Void = { iterations in
        let directory = ScaleFixture.stateDirectory
        for _ in 0..<iterations { run(["check"], stateDirectory: directory) }
    }

    /// `process.check.memory`: the peak resident size of one `opctl check` over the runs of
    /// ``ScaleFixture``, in bytes.
    static let checkingMemory: @Sendable (Int) -> Int = { _ in
        run(["check"], stateDirectory: ScaleFixture.stateDirectory) ?? 0
    }

    /// A state directory of this benchmark process's own.
    private static let scratch: URL = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("opctl-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }()

    /// Starts `opctl` with `arguments`, its output discarded, and waits for it to exit.
    ///
    /// Through `posix_spawn` directly, so that what is timed is opctl's own start (Docs/Benchmarks.md,
    /// "Method").
    ///
    /// - Returns: The peak resident size of the process in bytes, `nil` when it did not start.
    @discardableResult
    static func run(_ arguments: [String], stateDirectory: URL) -> Int? {
        spawn(opctl, arguments, stateDirectory: stateDirectory)
    }

    /// Starts this benchmark program again with `arguments`, as ``run(_:stateDirectory:)`` starts opctl.
    static func runSelf(_ arguments: [String]) -> Int? {
        spawn(Bundle.main.executableURL, arguments, stateDirectory: scratch)
    }

    private static func spawn(_ executable: URL?, _ arguments: [String], stateDirectory: URL) -> Int? {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
            // No posix_spawn (nor any way to start a process) on these platforms: the process
            // cases measure nothing there.
            return nil
        #else
            guard let executable else { return nil }
            var environment = ProcessInfo.processInfo.environment
            environment["OPCTL_STATE_DIR"] = stateDirectory.path
            let argv = [executable.path] + arguments
            let envp = environment.map { "\($0.key)=\($0.value)" }
            #if canImport(Darwin)
                // Darwin: posix_spawn_file_actions_t is an opaque optional pointer that init fills
                // in; glibc's is a struct to be made first.
                var actions: posix_spawn_file_actions_t? = nil
            #else
                var actions = posix_spawn_file_actions_t()
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            var pid = pid_t()
            let spawned = withCStrings(argv) { argv in
                withCStrings(envp) { envp in posix_spawn(&pid, executable.path, &actions, nil, argv, envp) }
            }
            guard spawned == 0 else { return nil }
            var status: Int32 = 0
            var usage = rusage()
            while wait4(pid, &status, 0, &usage) == -1 && errno == EINTR {}
            return ResidentMemory.bytes(usage)
        #endif
    }

    /// Calls `body` with a NULL-terminated C array of `strings`, valid for the call.
    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer {
            for copy in copies { free(copy) }
        }
        return body(copies + [nil])
    }
}
