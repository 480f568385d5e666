package import Foundation

/// The section names of a 64-bit little-endian ELF file (an executable or an object), and the
/// objects a debug build made of a module: how the tests find which of them carries a
/// `.preinit_array` entry (an ELF section), the early Ctrl-C hook only a program opts into.
package enum ELFSections {
    package struct NotELF: Error {}

    /// The debug build's directory, beside the running test bundle.
    package static let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        .deletingLastPathComponent()

    /// The object files the build made of `module`.
    package static func objects(of module: String) throws -> [URL] {
        let directory = products.appendingPathComponent("\(module).build")
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "o" }
    }

    /// The names of `file`'s sections.
    ///
    /// - Throws: ``NotELF`` when `file` is not a 64-bit ELF file; a read error.
    package static func names(of file: URL) throws -> [String] {
        let data = try Data(contentsOf: file, options: .alwaysMapped)
        guard data.count > 64, data.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), data[4] == 2 else {
            throw NotELF()
        }
        func integer(_ offset: Int, _ size: Int) -> Int {
            (0..<size).reduce(0) { $0 | Int(data[data.startIndex + offset + $1]) << (8 * $1) }
        }
        let table = integer(0x28, 8)
        let entrySize = integer(0x3A, 2)
        let count = integer(0x3C, 2)
        let namesIndex = integer(0x3E, 2)
        let namesOffset = integer(table + namesIndex * entrySize + 0x18, 8)
        return (0..<count).map { index in
            var start = namesOffset + integer(table + index * entrySize, 4)
            var bytes: [UInt8] = []
            while data[data.startIndex + start] != 0 {
                bytes.append(data[data.startIndex + start])
                start += 1
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
