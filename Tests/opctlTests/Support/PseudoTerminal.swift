import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pseudo-terminal to give an opctl process as its standard input: opctl sees a terminal, so it
/// prompts and asks again after a wrong code, as for a person, and the test types the person's
/// lines. Standard output and error stay files (``OpctlProcess``), read as they grow.
final class PseudoTerminal: Sendable {
    /// Why a pseudo-terminal could not be made.
    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The controlling side, where the test types; what the terminal echoes back is never read,
    /// and a few lines fit in its buffer.
    private let controller: Int32
    /// The terminal's side, the child's standard input.
    let device: FileHandle

    init() throws {
        controller = Terminals.openController(O_RDWR | O_NOCTTY)
        guard controller >= 0 else {
            throw Unavailable(description: "posix_openpt: \(String(cString: strerror(errno)))")
        }
        var name = [CChar](repeating: 0, count: 128)
        guard Terminals.grant(controller) == 0, Terminals.unlock(controller) == 0,
            Terminals.name(controller, &name, name.count) == 0
        else {
            close(controller)
            throw Unavailable(description: "grantpt/unlockpt/ptsname: \(String(cString: strerror(errno)))")
        }
        let device = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard device >= 0 else {
            close(controller)
            throw Unavailable(description: "cannot open the terminal's device")
        }
        self.device = FileHandle(fileDescriptor: device, closeOnDealloc: true)
    }

    deinit {
        close(controller)
    }

    /// Types `line` and Return, as a person at the terminal does.
    func type(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(controller, $0.baseAddress, $0.count) }
    }
}

/// The C library's pseudo-terminal calls. Glibc's module leaves them out (they need
/// `_XOPEN_SOURCE`), so on Linux they are looked up by name; `ptsname_r`, because `ptsname`'s
/// buffer is shared by every thread and tests run in parallel.
private enum Terminals {
    #if canImport(Glibc)
        typealias Call = @convention(c) (Int32) -> Int32
        typealias Name = @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32

        static let openController = look("posix_openpt", Call.self) ?? { _ in -1 }
        static let grant = look("grantpt", Call.self) ?? { _ in -1 }
        static let unlock = look("unlockpt", Call.self) ?? { _ in -1 }
        static let name = look("ptsname_r", Name.self) ?? { _, _, _ in -1 }

        private static func look<Function>(_ symbol: String, _ type: Function.Type) -> Function? {
            dlsym(nil, symbol).map { unsafeBitCast($0, to: type) }
        }
    #else
        static func openController(_ flags: Int32) -> Int32 { posix_openpt(flags) }
        static func grant(_ descriptor: Int32) -> Int32 { grantpt(descriptor) }
        static func unlock(_ descriptor: Int32) -> Int32 { unlockpt(descriptor) }
        static func name(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32 {
            guard let name = ptsname(descriptor) else { return -1 }
            return strlcpy(buffer, name, size) < size ? 0 : -1
        }
    #endif
}
