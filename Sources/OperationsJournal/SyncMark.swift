import Foundation
import Operations

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How far a journal had been synced to disk, kept beside it in `<journal>.synced`: the number
/// of the last line synced and that line's checksum. A journal that ends before that line, or
/// has another line in its place, lost lines that were on disk (``JournalLoss``).
///
/// The lines themselves cannot say that the lines after them are gone; something outside the
/// journal has to remember how long it was. The mark is that memory: after each sync of the
/// journal, one write of a fixed-size record over the last (``MarkFile``), with no sync of its
/// own. Written only after the journal's sync returned, it never claims
/// more than the journal had on disk; it may claim less (a power loss can take its latest write,
/// which reaches the disk with the system's writeback), and a loss past the line it names then
/// goes unseen. The record is one line with its own checksum, `{"synced":12,"last":"0a1b2c3d",
/// "sum":"…"}` padded with spaces to ``recordLength`` bytes; see Docs/Architecture.md ("The
/// journal format").
struct SyncMark: Equatable {
    /// The number of the last line synced (the header is 1).
    let line: Int
    /// That line's checksum.
    let sum: UInt32

    /// Every record has this length, so that each write covers the one before it whole.
    static let recordLength = 80

    /// The mark's file for the journal at `journal`: its name with `.synced` added, a sibling
    /// that removing the run takes along.
    static func url(for journal: URL) -> URL {
        journal.appendingPathExtension(JournalFormat.Mark.fileExtension)
    }

    /// The record: one line, checksummed, padded to ``recordLength``.
    var record: [UInt8] {
        var text = JournalLine(capacity: Self.recordLength)
        text.field(JournalFormat.Mark.line, int: line)
        text.field(JournalFormat.Mark.checksum, string: LineChecksum.hex(sum))
        var bytes = text.bytes
        LineChecksum.appendSuffix(LineChecksum.adler32(bytes), to: &bytes)
        bytes.removeLast()  // MarkFile.record ends it with its own newline, after the padding.
        return MarkFile.record(bytes, length: Self.recordLength)
    }

    /// The mark in a record; `nil` when the bytes are not one as written.
    static func decode(_ bytes: [UInt8]) -> SyncMark? {
        let record = bytes.prefix { $0 != UInt8(ascii: "\n") }
        let trimmed = record[..<(record.lastIndex { $0 != UInt8(ascii: " ") }.map { $0 + 1 } ?? record.startIndex)]
        guard LineChecksum.verify(trimmed) == .intact,
            let object = try? JSONSerialization.jsonObject(with: Data(trimmed)) as? [String: Any],
            let line = object[JournalFormat.Mark.line] as? Int, line >= 1,
            let text = object[JournalFormat.Mark.checksum] as? String,
            let sum = LineChecksum.value(hex: Array(text.utf8))
        else { return nil }
        return SyncMark(line: line, sum: sum)
    }

    /// The mark of the journal at `journal`, read before the journal itself so that a live
    /// writer's later syncs cannot make it claim more than the bytes read after it.
    ///
    /// - Returns: The mark; `nil` when the journal has none (written before marks, never
    ///   synced since, or copied without it) or it is empty (made and not yet written).
    /// - Throws: ``JournalError/linesLost(_:_:)`` with ``JournalLoss/unreadableMark(_:)`` when
    ///   it exists and does not read: nothing then tells whether lines were lost.
    static func read(for journal: URL) throws(JournalError) -> SyncMark? {
        let url = url(for: journal)
        guard JournalFile.exists(url) else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try JournalFile.readAll(url)
        } catch {
            // Removed between the look and the read: as good as never there.
            guard JournalFile.exists(url) else { return nil }
            throw .linesLost(journal, .unreadableMark(url.lastPathComponent))
        }
        if bytes.isEmpty { return nil }
        guard let mark = decode(bytes) else { throw .linesLost(journal, .unreadableMark(url.lastPathComponent)) }
        return mark
    }

    /// Writes `mark` as the mark of `journal`, for a journal made whole and synced at once (a
    /// rerun's copy); best effort, as every write of a mark.
    static func write(_ mark: SyncMark, for journal: URL) {
        var file = MarkFile(url(for: journal))
        _ = file.write(mark.record)
        file.close()
    }
}

/// The file of a mark beside a journal (``SyncMark``, ``ParkMark``): opened at its first write,
/// each fixed-length record written over the last at offset 0, so that each write covers the one
/// before it whole.
///
/// Best effort: a sync mark that cannot be written leaves the one before it, which claims less
/// than the journal holds — it lags and never leads, so it can miss a loss but never make one up.
/// The journal's own writes are what stop a run (contract 15), not its marks'.
struct MarkFile {
    let url: URL
    private var descriptor: Int32 = -1

    init(_ url: URL) {
        self.url = url
    }

    /// `text` padded with spaces to `length` bytes, the last a newline.
    static func record(_ text: [UInt8], length: Int) -> [UInt8] {
        var record = text
        record += repeatElement(UInt8(ascii: " "), count: max(0, length - 1 - text.count))
        record.append(UInt8(ascii: "\n"))
        return record
    }

    /// Whether a record was written and the file is not closed yet.
    var isOpen: Bool { descriptor >= 0 }

    /// Writes `record` over the one before it; `false` when the file cannot be opened or the
    /// record was not written whole.
    mutating func write(_ record: [UInt8]) -> Bool {
        if descriptor < 0 {
            descriptor = url.withUnsafeFileSystemRepresentation { path in
                path.map { open($0, O_WRONLY | O_CREAT | O_CLOEXEC, JournalFile.fileMode) } ?? -1
            }
            guard descriptor >= 0 else { return false }
        }
        return record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == record.count
    }

    mutating func close() {
        if descriptor >= 0 { JournalFile.closeDescriptor(descriptor) }
        descriptor = -1
    }
}
