#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The whole program is the benchmark; `BenchCommand` keeps the logic testable in-process.
exit(BenchCommand.run(arguments: Array(CommandLine.arguments.dropFirst())))
