#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(Opctl.main(Array(CommandLine.arguments.dropFirst()), console: .standard))
