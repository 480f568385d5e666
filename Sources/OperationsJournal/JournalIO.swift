import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a journal writes and syncs its open file: the system's calls, or the faults of a test.
///
/// The one seam between the journal and the disk, so that a failing write or sync is a real
/// failure of the journal's own path, not a mock around it: the fault explorer of
/// `OperationsExplorer` (Sources/OperationsExplorer/Explorer/) puts full disks, I/O errors, torn
/// writes and kills here.
package struct JournalIO: Sendable {
    /// Writes all of the bytes to the descriptor; `nil`, or the `errno` of the write that failed
    /// (bytes before it may be in the file).
    package var write: @Sendable (_ bytes: UnsafeRawBufferPointer, _ descriptor: Int32) -> Int32?
    /// Keeps the guarantee for what was written (``DiskSync/sync(_:_:)``); `nil`, or the `errno`
    /// of the failed sync. The journal asks for ``DiskSync/Guarantee/durable`` before a step with
    /// side effects and at its durability's guarantee when a step finishes.
    package var sync: @Sendable (_ descriptor: Int32, _ guarantee: DiskSync.Guarantee) -> Int32?

    /// Creates a file layer from its two calls.
    package init(
        write: @escaping @Sendable (_ bytes: UnsafeRawBufferPointer, _ descriptor: Int32) -> Int32?,
        sync: @escaping @Sendable (_ descriptor: Int32, _ guarantee: DiskSync.Guarantee) -> Int32?
    ) {
        self.write = write
        self.sync = sync
    }

    /// `write(2)` until done, and the platform's calls for each guarantee (``DiskSync``).
    package static let system = JournalIO(
        write: { bytes, descriptor in DescriptorWrite.all(bytes, to: descriptor) },
        sync: { descriptor, guarantee in DiskSync.sync(descriptor, guarantee) == 0 ? nil : errno })
}
