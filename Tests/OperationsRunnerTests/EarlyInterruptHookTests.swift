import Foundation
import OperationsTestSupport
import Testing

/// The early Ctrl-C hook (``installEarlyInterruptExit()``) is something an executable opts into,
/// not a side effect of linking `OperationsRunner`: no object of the runner library has a
/// `.preinit_array` entry. (opctl's opt-in is opctlTests' EarlyInterruptOptInTests; the test
/// bundle links opctl's module too, so it is the runner's objects that are read, not the bundle.)
///
/// Read from the built objects' ELF section headers: `.preinit_array` is an ELF section, and the
/// hook exists only where `@section` does (Swift 6.3).
#if os(Linux) && compiler(>=6.3)
    struct EarlyInterruptHookTests {
        @Test func linkingTheRunnerInstallsNoHook() throws {
            let objects = try ELFSections.objects(of: "OperationsRunner")
            #expect(objects.count > 10, "found no objects of OperationsRunner in \(ELFSections.products.path)")
            for object in objects {
                let sections = try ELFSections.names(of: object)
                #expect(!sections.isEmpty, "no sections read from \(object.lastPathComponent)")
                #expect(!sections.contains(".preinit_array"), "\(object.lastPathComponent) installs a hook")
            }
        }
    }
#endif
