import Foundation
import Operations

/// The journal of a run made by `rerun ID --from STEP`, made from the old run's bytes: a new
/// header naming the old run and the step, then the old lines the new run replays, copied as
/// they were (sealed values included; a sealer does not bind a value to its run) and placed
/// anew: each says where it stands in the new file, and its checksum is made again
/// (``LinePosition``).
///
/// The rule, on the old journal's intact lines: a step's lines are copied when the step was
/// first reached (launched or skipped) before `STEP` was, and it is neither `STEP`, nor inside
/// it, nor a scenario that contains it, nor a compensation. So every attempt of a step that had
/// retries is kept and replays its last success; a conditional step the old run skipped stays
/// skipped in the record; the scenarios around `STEP` are launched again to reach it, their
/// earlier steps replayed one by one; `STEP` and whatever came after it have no record, so they
/// are launched as new requests with new idempotency keys. `resumed`, `compensating` and
/// `runFinished` lines are not copied: the new run is a single unfinished session, which the
/// rerun then resumes like any interrupted run.
enum RerunCopy {
    /// The lines after the header that the new run keeps, in their order, from the old
    /// journal's complete `lines` (header first); `nil` when the old run never reached `step`.
    static func keptLines(_ lines: [ArraySlice<UInt8>], from step: StepAddress, startedAt: Date = Date())
        -> [ArraySlice<UInt8>]?
    {
        let decoder = JSONDecoder()
        var events: [(line: ArraySlice<UInt8>, kind: JournalFormat.Event, address: StepAddress?)] = []
        var firstReached: [StepAddress: Int] = [:]
        for line in lines.dropFirst() {
            // A damaged or unreadable line is not copied: the new run starts from what is intact.
            guard LineChecksum.verify(line) != .damaged,
                let event = try? decoder.decode(JournalFormat.EventLine.self, from: Data(line)),
                let kind = JournalFormat.Event(rawValue: event.event)
            else { continue }
            if let address = event.address, firstReached[address] == nil { firstReached[address] = events.count }
            events.append((line, kind, event.address))
        }
        guard let stepReached = firstReached[step] else { return nil }
        return events.enumerated().compactMap { position, event -> ArraySlice<UInt8>? in
            switch event.kind {
            // The start keeps the run's input; it is stamped with the new run's start, so the
            // new run lists as started when it was made.
            case .runStarted: return position < stepReached ? restamped(event.line, at: startedAt) : nil
            // A reaction to an event belongs to the session that handled it, not to the steps.
            case .resumed, .compensating, .runFinished, .eventHandled: return nil
            case .stepLaunched, .stepSucceeded, .stepFailed, .stepSkipped, .stepReplayed, .polling:
                guard let address = event.address, let reached = firstReached[address], reached < stepReached,
                    !isPrefix(address, of: step), !isPrefix(step, of: address),
                    !address.path.contains(where: { $0.index < 0 })  // a compensation (its position is -1)
                else { return nil }
                return event.line
            }
        }
    }

    /// The new journal's bytes: `header` and `kept` (lines without their newlines), each placed
    /// where it now stands, and the mark that names its last line.
    static func journal(header: ArraySlice<UInt8>, kept: [ArraySlice<UInt8>]) -> (bytes: [UInt8], mark: SyncMark) {
        var bytes: [UInt8] = []
        var previous: UInt32?
        for (offset, line) in ([header] + kept).enumerated() {
            let placed = LinePosition.place(line, at: LinePosition(sequence: offset + 1, previous: previous))
            bytes += placed.bytes
            previous = placed.sum
        }
        return (bytes, SyncMark(line: kept.count + 1, sum: previous ?? 0))
    }

    /// The new header: the old one with the new run's id and creation time, and `rerunOf`.
    ///
    /// - Returns: `nil` when the old header is not laid out as a journal writes it.
    static func header(
        _ old: ArraySlice<UInt8>, oldRun: RunID, newRun: RunID, createdAt: Date, origin: RerunOrigin
    ) -> [UInt8]? {
        var body = fields(of: old)
        var runField = Array(#""run":"#.utf8)
        JournalLine.appendString(oldRun.rawValue, to: &runField)
        guard let runRange = body.firstRange(of: runField) else { return nil }
        // A rerun of a rerun: the old origin, written right after the run's id and before the
        // scenario's name, gives way to the new one. A quote inside a name is escaped, so
        // `,"scenario":` cannot occur inside the origin.
        let oldOrigin = Array(#","rerunOf":"#.utf8)
        if body[runRange.upperBound...].starts(with: oldOrigin) {
            guard let scenario = body[runRange.upperBound...].firstRange(of: Array(#","scenario":"#.utf8)) else {
                return nil
            }
            body.removeSubrange(runRange.upperBound..<scenario.lowerBound)
        }
        var replacement = Array(#""run":"#.utf8)
        JournalLine.appendString(newRun.rawValue, to: &replacement)
        replacement += Array(#","rerunOf":{"run":"#.utf8)
        JournalLine.appendString(origin.run.rawValue, to: &replacement)
        var stepLine = JournalLine()
        stepLine.field("step", address: origin.step)
        replacement += [UInt8(ascii: ",")] + stepLine.bytes.dropFirst() + [UInt8(ascii: "}")]
        body.replaceSubrange(runRange, with: replacement)
        let created = Array(#""createdAt":""#.utf8)
        if let start = body.firstRange(of: created)?.upperBound,
            let end = body[start...].firstIndex(of: UInt8(ascii: "\""))
        {
            let text = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(createdAt)
            body.replaceSubrange(start..<end, with: Array(text.utf8))
        }
        return body + LineChecksum.suffix(for: body)
    }

    /// `line` with its `at` set to `date` and its checksum made again; as it was when it has
    /// no `at` where a journal writes it (right after the event's name).
    private static func restamped(_ line: ArraySlice<UInt8>, at date: Date) -> ArraySlice<UInt8> {
        var body = fields(of: line)
        guard let field = body.firstRange(of: Array(#","at":"#.utf8)) else { return line }
        let digits = body[field.upperBound...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        guard !digits.isEmpty else { return line }
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        body.replaceSubrange(field.upperBound..<digits.endIndex, with: Array(String(milliseconds).utf8))
        // Without the newline, which the copy adds after each line.
        return ArraySlice((body + LineChecksum.suffix(for: body)).dropLast())
    }

    /// A line's fields before its checksum (or before the closing brace of a line without one).
    private static func fields(of line: ArraySlice<UInt8>) -> [UInt8] {
        Array(LineChecksum.verify(line) == .intact ? line.dropLast(LineChecksum.suffixLength) : line.dropLast())
    }

    private static func isPrefix(_ prefix: StepAddress, of address: StepAddress) -> Bool {
        prefix.path.count <= address.path.count && Array(address.path.prefix(prefix.path.count)) == prefix.path
    }
}
