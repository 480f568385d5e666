import Foundation
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a file's metadata says about its content, cheaply: size, modification time to the
/// nanosecond, and inode.
///
/// The run index trusts a cached summary only while the journal's stamp is unchanged. Journals
/// only grow (an append changes the size even within one tick of a coarse clock), a resume
/// that cuts a torn line appends a line right after, and a file deleted and created again under
/// the same name gets a new inode; so an equal stamp means the summary is still the file's.
struct FileStamp: Hashable, Codable {
    var size: Int64
    /// The modification time, in nanoseconds since 1970.
    var modified: Int64
    var inode: UInt64

    /// The stamp of the file at `url` (of its target, like every read of it); `nil` when there is
    /// no file.
    init?(of url: URL) {
        var info = stat()
        let found = url.withUnsafeFileSystemRepresentation { path in path.map { stat($0, &info) == 0 } ?? false }
        guard found else { return nil }
        self.init(info)
    }

    /// The stamp of the file at `path`; a listing of thousands of journals stats them by path
    /// rather than build a `URL` for each.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(size: Int64, modified: Int64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.inode = inode
    }

    private init(_ info: stat) {
        #if canImport(Darwin)
            let time = info.st_mtimespec
        #else
            let time = info.st_mtim
        #endif
        self.init(
            size: Int64(info.st_size), modified: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec),
            inode: UInt64(info.st_ino))
    }
}
