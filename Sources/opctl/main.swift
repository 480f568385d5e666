import OperationsRunner

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// First thing: Ctrl-C before a run installs its own handler (while the program loads its
// libraries or parses arguments) ends opctl with the interrupted status instead of the signal's
// default death. A run replaces this with a handler that cancels and journals, then puts it back.
signal(SIGINT) { _ in _exit(130) }

exit(Opctl.main(Array(CommandLine.arguments.dropFirst()), console: .standard))
