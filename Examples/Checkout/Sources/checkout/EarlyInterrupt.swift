import OperationsRunner

// checkout opts into the runner's earliest Ctrl-C handling, as opctl does: the dynamic loader
// calls this entry of the executable's `.preinit_array` before any library initialiser, so an
// interrupt in the process's first milliseconds exits 130 rather than dying by the signal.
// `.preinit_array` is an ELF section (Linux); `@section`/`@used` need Swift 6.3. Elsewhere
// `runProcess()` installs the same handler as `main` starts.
#if os(Linux) && compiler(>=6.3)
    @used @section(".preinit_array")
    let exitOnEarlyInterrupt: @convention(c) () -> Void = installEarlyInterruptExit
#endif
