import Foundation
import Operations

/// Turns the bytes of a journal into a ``JournalRecord``.
///
/// A torn last line past the last sync — what a process killed mid-write leaves — is ignored,
/// and the record says so. Anything else that does not read as a journal becomes a
/// ``JournalError``: a file that is not a journal, one of another format version, a damaged
/// line before the last, or lost lines (``JournalLoss``).
enum JournalReader {
    /// Reads and parses the journal at `url` with its sync mark, asking its lock whether a live
    /// process writes it.
    static func read(_ url: URL, skippingDamage: Bool = false) throws(JournalError) -> JournalRecord {
        // The mark first: a live writer marks only what it synced, so a mark read before the
        // bytes never names a line they lack.
        let mark = try SyncMark.read(for: url)
        let bytes = try JournalFile.readAll(url)
        return try parse(
            bytes, url: url, mark: mark, isBeingWritten: JournalFile.isBeingWritten(url),
            skippingDamage: skippingDamage)
    }

    /// Parses the bytes of a whole journal file; `url` is named in errors and kept in the record,
    /// `mark` is the journal's sync mark, read before the bytes (``SyncMark/read(for:)``).
    ///
    /// - Parameters:
    ///   - isBeingWritten: Whether a live writer holds the journal; an unfinished run is
    ///     `running` if so and `interrupted` if not.
    ///   - skippingDamage: Skip damaged lines after the header and list them in the record (to
    ///     resume from what is intact) instead of refusing the first one no resume acknowledged.
    ///     Lost lines are refused either way.
    static func parse(
        _ bytes: [UInt8], url: URL, mark: SyncMark?, isBeingWritten: Bool, skippingDamage: Bool = false
    ) throws(JournalError) -> JournalRecord {
        let lines = split(bytes)
        guard let headerLine = lines.complete.first else {
            if let mark { throw .linesLost(url, .lostTail(first: 1, last: mark.line, after: "the start")) }
            throw .notAJournal(
                url, reason: bytes.isEmpty ? "the file is empty" : "it has no complete first line")
        }
        if LineChecksum.verify(headerLine) == .damaged {
            throw .damaged(url, line: 1, reason: Self.checksumMismatch)
        }
        let header = try readHeader(headerLine, url: url)
        var builder = RecordBuilder(header: header)
        let decoder = JSONDecoder()
        var damaged: [JournalRecord.DamagedLine] = []
        var acknowledged = Set<Int>()
        var places = PlaceCheck(lines: lines.complete)
        if let loss = places.check(headerLine, number: 1) { throw .linesLost(url, loss) }
        for (offset, line) in lines.complete.enumerated().dropFirst() {
            let number = offset + 1
            // Checked before the line is read at all: a damaged line may still parse.
            if LineChecksum.verify(line) == .damaged {
                damaged.append(.init(line: number, reason: Self.checksumMismatch))
                places.skipDamaged()
                continue
            }
            if let loss = places.check(line, number: number) { throw .linesLost(url, loss) }
            // The journal's own form read by the scanner; anything else, damage included, by
            // `JSONDecoder`, which says what is wrong (Docs/Benchmarks.md, "A journal parsed once").
            let event: JournalFormat.EventLine
            if let scanned = JournalFormat.EventLine(scanning: line, decoder: decoder) {
                event = scanned
            } else {
                do {
                    event = try decoder.decode(JournalFormat.EventLine.self, from: Data(line))
                } catch {
                    damaged.append(.init(line: number, reason: RecordedValue.explain(error)))
                    continue
                }
            }
            guard let kind = JournalFormat.Event(rawValue: event.event) else { continue }
            do {
                let values = kind.carriesValues ? try event.values.read() : (nil, nil)
                try builder.apply(kind, event, values: values)
            } catch let reason {
                damaged.append(.init(line: number, reason: reason.text))
                continue
            }
            if kind == .resumed { acknowledged.formUnion(event.skippedLines ?? []) }
        }
        if let mark, let loss = places.checkTail(against: mark) { throw .linesLost(url, loss) }
        if !skippingDamage, let first = damaged.first(where: { !acknowledged.contains($0.line) }) {
            throw .damaged(url, line: first.line, reason: first.reason)
        }
        return builder.finish(
            url: url, isBeingWritten: isBeingWritten, ignoredTornLine: lines.tornTail,
            intactLength: lines.intactLength, lineCount: lines.complete.count,
            lastLineSum: lines.complete.last.flatMap(LineChecksum.intactSum), damagedLines: damaged)
    }

    /// Why a line whose checksum does not match is not replayed.
    static let checksumMismatch =
        "its checksum does not match its bytes: the line changed on disk after it was written, so nothing it says is replayed"

    // MARK: - Internals

    struct Lines {
        var complete: [ArraySlice<UInt8>]
        var tornTail: Bool
        var intactLength: Int
    }

    /// Splits on newlines; bytes after the last newline are a torn line.
    static func split(_ bytes: [UInt8]) -> Lines {
        var complete: [ArraySlice<UInt8>] = []
        complete.reserveCapacity(bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            complete.append(bytes[start..<index])
            start = index + 1
        }
        return Lines(complete: complete, tornTail: start < bytes.count, intactLength: start)
    }

    private static func readHeader(_ line: ArraySlice<UInt8>, url: URL) throws(JournalError) -> Header {
        let decoder = JSONDecoder()
        // The whole header at once; only a line that is not one is read again for its signature,
        // to tell another file from a damaged header.
        let decoded = try? decoder.decode(JournalFormat.Header.self, from: Data(line))
        let signature =
            decoded.map { JournalFormat.Signature(format: $0.format, version: $0.version) }
            ?? (try? decoder.decode(JournalFormat.Signature.self, from: Data(line)))
        guard let signature else {
            throw .notAJournal(url, reason: "its first line is not a JSON object")
        }
        guard signature.format == JournalFormat.name, let version = signature.version else {
            throw .notAJournal(url, reason: "its first line is JSON but not a journal header")
        }
        guard version == JournalFormat.version else {
            throw .unsupportedVersion(url, found: version, supported: JournalFormat.version)
        }
        guard let header = decoded,
            let runText = header.run, let runID = try? RunID(validating: runText),
            let scenario = header.scenario,
            let createdText = header.createdAt,
            let createdAt = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(createdText)
        else {
            throw .damaged(url, line: 1, reason: "the header lacks a valid run id, scenario or creation time")
        }
        if let shape = header.shape, header.fingerprint != shape.fingerprint {
            throw .damaged(
                url, line: 1,
                reason:
                    "the header's fingerprint \(header.fingerprint ?? "(none)") does not match its shape's \(shape.fingerprint)"
            )
        }
        if header.shape == nil, header.fingerprint != nil {
            throw .damaged(url, line: 1, reason: "the header has a fingerprint but no readable shape")
        }
        let input: RecordedValue?
        do {
            input = try header.values.read().input
        } catch {
            throw .damaged(url, line: 1, reason: error.text)
        }
        return Header(
            runID: runID, scenario: scenario, createdAt: createdAt, shape: header.shape,
            settings: header.settings ?? [:], input: input, rerunOf: header.rerunOf)
    }

    struct Header {
        let runID: RunID
        let scenario: String
        let createdAt: Date
        let shape: ScenarioShape?
        let settings: [String: String]
        /// The run's input as the header recorded it, before the scenario started.
        let input: RecordedValue?
        let rerunOf: RerunOrigin?
    }

    /// Why an event line, valid JSON, makes no sense as a journal event.
    struct Inconsistency: Error {
        let text: String
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
