import Foundation
import Testing

/// The early Ctrl-C hook is something an executable opts into, not a side effect of linking
/// `OperationsRunner`: no object of the runner library has a `.preinit_array` entry, and opctl's
/// own module does (Sources/opctl/EarlyInterrupt.swift). (This test bundle links opctl's module
/// to test it, so it carries opctl's entry; an app or a test bundle linking only the runner has
/// none.)
///
/// Read from the built objects' ELF section headers: `.preinit_array` is an ELF section, and the
/// hook exists only where `@section` does (Swift 6.3).
#if os(Linux) && compiler(>=6.3)
    struct EarlyInterruptOptInTests {
        /// The debug build's directory, beside this test bundle.
        static let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent()

        static func objects(of module: String) throws -> [URL] {
            let directory = products.appendingPathComponent("\(module).build")
            return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
                .filter { $0.pathExtension == "o" }
        }

        @Test func opctlOptsIntoTheEarlyHook() throws {
            let sections = try ELFSections.names(of: OpctlBinary.url())
            #expect(sections.contains(".preinit_array"), "\(sections)")
            let withHook = try Self.objects(of: "opctl").filter {
                try ELFSections.names(of: $0).contains(".preinit_array")
            }
            #expect(withHook.map(\.lastPathComponent) == ["EarlyInterrupt.swift.o"])
        }

        @Test func linkingTheRunnerInstallsNoHook() throws {
            let objects = try Self.objects(of: "OperationsRunner")
            #expect(objects.count > 10, "found no objects of OperationsRunner in \(Self.products.path)")
            for object in objects {
                let sections = try ELFSections.names(of: object)
                #expect(!sections.isEmpty, "no sections read from \(object.lastPathComponent)")
                #expect(!sections.contains(".preinit_array"), "\(object.lastPathComponent) installs a hook")
            }
        }
    }

    /// The section names of a 64-bit little-endian ELF file (an executable or an object).
    enum ELFSections {
        struct NotELF: Error {}

        static func names(of file: URL) throws -> [String] {
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
#endif
