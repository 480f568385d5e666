import Foundation

/// An LD_PRELOAD library that makes the built opctl's journal writes fail, as a full or broken
/// disk would: from the `FAIL_JOURNAL_AFTER`-th write on (counting from 0) to a run's journal
/// (`runs/ID.jsonl`, not its trace), `write(2)` returns -1 with `errno` `FAIL_JOURNAL_ERRNO`.
/// Every other write of the process goes through. Built with the toolchain's own clang.
enum FailingJournalShim {
    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <errno.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <unistd.h>

        static int journal_writes = 0;

        static int is_journal(int fd) {
            char link[64], path[4096];
            snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
            ssize_t n = readlink(link, path, sizeof path - 1);
            if (n < 0) return 0;
            path[n] = 0;
            return strstr(path, "/runs/") != NULL && strstr(path, ".jsonl") != NULL
                && strstr(path, ".trace.jsonl") == NULL;
        }

        ssize_t write(int fd, const void *buffer, size_t count) {
            static ssize_t (*real_write)(int, const void *, size_t);
            if (!real_write) real_write = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
            if (is_journal(fd)) {
                const char *after = getenv("FAIL_JOURNAL_AFTER");
                int index = __atomic_fetch_add(&journal_writes, 1, __ATOMIC_SEQ_CST);
                if (after && index >= atoi(after)) {
                    const char *code = getenv("FAIL_JOURNAL_ERRNO");
                    errno = code ? atoi(code) : ENOSPC;
                    return -1;
                }
            }
            return real_write(fd, buffer, count);
        }
        """

    /// Compiles the library into `directory`.
    ///
    /// - Returns: Its path, or `nil` with the compiler's complaint when no C compiler works.
    static func build(in directory: URL) throws -> Result<URL, ShimUnavailable> {
        let sourceURL = directory.appendingPathComponent("failing-journal.c")
        let library = directory.appendingPathComponent("failing-journal.so")
        try Data(source.utf8).write(to: sourceURL)
        for compiler in ["/opt/swift/usr/bin/clang", "/usr/bin/clang", "/usr/bin/cc"]
        where FileManager.default.isExecutableFile(atPath: compiler) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: compiler)
            process.arguments = ["-shared", "-fPIC", "-o", library.path, sourceURL.path, "-ldl"]
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus == 0 { return .success(library) }
        }
        return .failure(ShimUnavailable())
    }

    /// No C compiler could build the library.
    struct ShimUnavailable: Error {}
}
