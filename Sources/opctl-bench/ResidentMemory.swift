import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's resident memory, for `memory.1M`.
enum ResidentMemory {
    /// The resident size in bytes now.
    ///
    /// On Linux it is the second field of `/proc/self/statm` (pages) times the page size. Where
    /// there is no `/proc`, `getrusage`'s peak resident size stands in (bytes on Darwin,
    /// kilobytes elsewhere): a peak cannot shrink, so growth is still growth.
    static func currentBytes() -> Int {
        #if os(Linux)
            // Read with plain system calls (a 128-byte buffer, no Foundation).
            let descriptor = open("/proc/self/statm", O_RDONLY)
            if descriptor >= 0 {
                defer { close(descriptor) }
                var buffer = [UInt8](repeating: 0, count: 128)
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                // "size resident shared text lib data dt": the second field.
                let fields = buffer[..<max(0, count)].split(separator: UInt8(ascii: " "))
                if fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) {
                    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
                }
            }
        #endif
        var usage = rusage()
        // Glibc imports getrusage's `who` as the enum __rusage_who_t; Darwin and Musl take Int32.
        #if canImport(Glibc)
            let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
            let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        return bytes(usage)
    }

    /// The peak resident size `usage` reports, in bytes.
    static func bytes(_ usage: rusage) -> Int {
        // ru_maxrss: bytes on Darwin, kilobytes elsewhere.
        #if canImport(Darwin)
            Int(usage.ru_maxrss)
        #else
            Int(usage.ru_maxrss) * 1024
        #endif
    }

    /// The process's peak resident size in bytes since it started this program: `VmHWM` of
    /// `/proc/self/status`, which starts again at `exec`; `nil` where there is no `/proc`.
    static func peakBytes() -> Int? {
        #if os(Linux)
            guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
                let kilobytes = Int(line.dropFirst("VmHWM:".count).filter(\.isNumber))
            else { return nil }
            return kilobytes * 1024
        #else
            // No /proc: the caller falls back to what wait4 reports.
            return nil
        #endif
    }

    /// The growth of resident memory in bytes over `launches` calls of `launch`, after a warm-up
    /// of up to 10,000 calls that brings the allocator to its steady state: the measure of every
    /// `memory.*` case.
    static func growth(over launches: Int, _ launch: (Int) -> Void) -> Int {
        for index in 0..<min(launches, 10_000) { launch(index) }
        let before = currentBytes()
        for index in 0..<launches { launch(index) }
        return max(0, currentBytes() - before)
    }
}
