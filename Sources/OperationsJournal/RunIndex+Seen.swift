import Foundation
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension RunIndex {
    /// What the last full listing of the directory vouches for, `<runs>/index.seen`: the
    /// directory's modification time before it listed, when it began listing, and the sum of
    /// an index whose journals were exactly the names listed. While the directory's time is
    /// still that one, no journal was created, removed or renamed since, so the index's names
    /// are the directory's and the listing is skipped (Docs/Benchmarks.md, "A listing skipped").
    ///
    /// The rule is git's for a racy index: a name added in the same tick of the file system's
    /// clock as the recorded time leaves that time unchanged, so the record is trusted only
    /// when the listing began a whole ``granularity`` after it. Written in place (the file
    /// once created), because a rename would change the very time it records; a torn or
    /// foreign record fails its checksum and is ignored.
    struct Seen {
        /// The coarsest timestamp of the file systems a run directory lives on (FAT's 2 s).
        static let granularity: Int64 = 2_000_000_000
        static let fileName = "index.seen"

        /// The directory's modification time before the listing, in nanoseconds since 1970.
        var directory: Int64
        /// When the listing began, after `directory` was read.
        var listed: Int64
        /// The sum of the index whose names the listing found (``Codec/Lines/checksum``).
        var index: String

        /// Whether a listing that began at `listed` can have missed a name stamped `directory`.
        var isRacy: Bool { listed <= directory + Self.granularity }

        private var text: String { "\(directory) \(listed) \(index)" }

        /// Writes the record over `url`'s file in place; a failure only costs the next listing.
        func write(to url: URL) {
            let descriptor = url.withUnsafeFileSystemRepresentation { path in
                path.map { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, JournalFile.fileMode) } ?? -1
            }
            guard descriptor >= 0 else { return }
            let line = Array((text + " " + LineChecksum.hex(LineChecksum.adler32(text.utf8)) + "\n").utf8)
            _ = line.withUnsafeBytes { DescriptorWrite.all($0, to: descriptor) }
            _ = close(descriptor)
        }
    }

    var seenURL: URL { directory.appendingPathComponent(Seen.fileName, isDirectory: false) }
}

extension RunIndex.Seen {
    /// The record in `url`'s file; `nil` when there is none or it does not check.
    init?(of url: URL) {
        guard let bytes = try? JournalFile.readAll(url) else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: " ")
        guard parts.count == 4, let directory = Int64(parts[0]), let listed = Int64(parts[1]) else { return nil }
        self.init(directory: directory, listed: listed, index: String(parts[2]))
        guard parts[3] == LineChecksum.hex(LineChecksum.adler32(text.utf8)) + "\n" else { return nil }
    }
}
