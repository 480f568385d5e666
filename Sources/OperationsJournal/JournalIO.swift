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
/// `OperationsTesting` (Sources/OperationsTesting/Explorer/) puts full disks, I/O errors, torn
/// writes and kills here.
package struct JournalIO: Sendable {
    /// Writes all of the bytes to the descriptor; `nil`, or the `errno` of the write that failed
    /// (bytes before it may be in the file).
    package var write: @Sendable (_ bytes: UnsafeRawBufferPointer, _ descriptor: Int32) -> Int32?
    /// Makes what was written durable; `nil`, or the `errno` of the failed sync.
    package var sync: @Sendable (_ descriptor: Int32) -> Int32?

    /// Creates a file layer from its two calls.
    package init(
        write: @escaping @Sendable (_ bytes: UnsafeRawBufferPointer, _ descriptor: Int32) -> Int32?,
        sync: @escaping @Sendable (_ descriptor: Int32) -> Int32?
    ) {
        self.write = write
        self.sync = sync
    }

    /// `write(2)` until done, and the platform's full sync (``DiskSync/full(_:)``).
    package static let system = JournalIO(
        write: { bytes, descriptor in DescriptorWrite.all(bytes, to: descriptor) },
        sync: { descriptor in DiskSync.full(descriptor) == 0 ? nil : errno })
}
