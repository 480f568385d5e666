#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The whole program is the benchmark; `BenchCommand` keeps the logic testable in-process.
let arguments = Array(CommandLine.arguments.dropFirst())
// The child `journal.resume100k.memory` starts to measure one resume in a process of its own.
if arguments.first == LongJournal.childOption { exit(LongJournal.runChild(Array(arguments.dropFirst()))) }
exit(BenchCommand.run(arguments: arguments))
