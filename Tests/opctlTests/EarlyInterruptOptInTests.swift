import Foundation
import OperationsTestSupport
import Testing

/// opctl opts into the runner's early Ctrl-C hook: its binary has a `.preinit_array` entry, made
/// by its own module's one file that asks for it (Sources/opctl/EarlyInterrupt.swift). That
/// linking the runner alone installs none is OperationsRunnerTests' EarlyInterruptHookTests.
///
/// Read from the built objects' ELF section headers: `.preinit_array` is an ELF section, and the
/// hook exists only where `@section` does (Swift 6.3).
#if os(Linux) && compiler(>=6.3)
    struct EarlyInterruptOptInTests {
        @Test func opctlOptsIntoTheEarlyHook() throws {
            let sections = try ELFSections.names(of: OpctlBinary.url())
            #expect(sections.contains(".preinit_array"), "\(sections)")
            let withHook = try ELFSections.objects(of: "opctl").filter {
                try ELFSections.names(of: $0).contains(".preinit_array")
            }
            #expect(withHook.map(\.lastPathComponent) == ["EarlyInterrupt.swift.o"])
        }
    }
#endif
