import Foundation
import Operations

extension RunIndex {
    /// The index file's bytes: a header line, then one tab-separated line per journal.
    ///
    /// Written and read by hand rather than with `JSONDecoder`, which spent 60 ms of a 100 ms
    /// listing decoding 2,000 entries; splitting lines on tabs takes about a millisecond.
    ///
    /// ```
    /// operations.run-index <TAB> 1 <TAB> <count> <TAB> <checksum of the lines below>
    /// <file> <size> <mtime-ns> <inode> run <finished|> <created-ms> <started-ms|> <finished-ms|>
    ///     <last-ms> <sessions> <scenario> [<index> <step>]…
    /// <file> <size> <mtime-ns> <inode> failure <kind> <line|> <found|> <supported|> <reason>
    /// ```
    ///
    /// An empty field is an absent value. Text fields escape `\`, tab, newline and carriage
    /// return with a backslash. The failed step's path closes a `run` line, one index and name
    /// per level.
    enum Codec {
        /// The index's bytes.
        static func encode(_ entries: [String: Entry]) -> [UInt8] {
            var body: [UInt8] = []
            body.reserveCapacity(entries.count * 160)
            for (name, entry) in entries {
                let stamp = entry.stamp
                var fields = [escape(name), String(stamp.size), String(stamp.modified), String(stamp.inode)]
                if let run = entry.run {
                    fields += [
                        "run", run.finished?.rawValue ?? "", String(run.createdAt),
                        run.startedAt.map { String($0) } ?? "",
                        run.finishedAt.map { String($0) } ?? "", String(run.lastActivityAt), String(run.sessions),
                        escape(run.scenario),
                    ]
                    for component in run.failedStep?.path ?? [] {
                        fields += [String(component.index), escape(component.name)]
                    }
                } else if let failure = entry.failure {
                    fields += [
                        "failure", failure.kind.rawValue, failure.line.map { String($0) } ?? "",
                        failure.found.map { String($0) } ?? "", failure.supported.map { String($0) } ?? "",
                        escape(failure.reason),
                    ]
                } else {
                    continue
                }
                body.append(contentsOf: fields.joined(separator: "\t").utf8)
                body.append(newline)
            }
            let header = [format, String(version), String(entries.count), checksum(body)].joined(separator: "\t")
            return Array(header.utf8) + [newline] + body
        }

        /// The entries in an index's bytes; `nil` when anything about them is not as written.
        static func decode(_ bytes: [UInt8]) -> [String: Entry]? {
            guard let end = bytes.firstIndex(of: newline) else { return nil }
            let header = fields(bytes[..<end])
            let body = bytes[(end + 1)...]
            guard header.count == 4, text(header[0]) == format, integer(header[1]) == Int64(version),
                let count = integer(header[2]), text(header[3]) == checksum(body)
            else { return nil }
            var entries: [String: Entry] = [:]
            entries.reserveCapacity(Int(clamping: count))
            var start = body.startIndex
            while start < body.endIndex {
                guard let stop = body[start...].firstIndex(of: newline),
                    let (name, entry) = entry(fields(body[start..<stop]))
                else { return nil }
                entries[name] = entry
                start = stop + 1
            }
            return entries.count == count ? entries : nil
        }

        // MARK: - Lines

        private static let newline = UInt8(ascii: "\n")
        private static let tab = UInt8(ascii: "\t")
        private static let backslash = UInt8(ascii: "\\")

        private static func entry(_ fields: [ArraySlice<UInt8>]) -> (String, Entry)? {
            guard fields.count >= 5, let name = unescape(fields[0]), let size = integer(fields[1]),
                let modified = integer(fields[2]), let inode = integer(fields[3]).flatMap(UInt64.init(exactly:))
            else { return nil }
            var entry = Entry(stamp: FileStamp(size: size, modified: modified, inode: inode))
            switch text(fields[4]) {
            case "run":
                guard fields.count >= 12, fields.count % 2 == 0, let created = integer(fields[6]),
                    let lastActivity = integer(fields[9]),
                    let sessions = integer(fields[10]).flatMap(Int.init(exactly:)),
                    let scenario = unescape(fields[11])
                else { return nil }
                let finished: RunStatus?
                if fields[5].isEmpty {
                    finished = nil
                } else {
                    guard let status = RunStatus(rawValue: text(fields[5])) else { return nil }
                    finished = status
                }
                guard let started = optionalInteger(fields[7]), let finishedAt = optionalInteger(fields[8]) else {
                    return nil
                }
                var path: [StepAddress.Component] = []
                for level in stride(from: 12, to: fields.count, by: 2) {
                    guard let index = integer(fields[level]).flatMap(Int.init(exactly:)),
                        let step = unescape(fields[level + 1])
                    else { return nil }
                    path.append(StepAddress.Component(index: index, name: step))
                }
                entry.run = CachedRun(
                    scenario: scenario, finished: finished, failedStep: path.isEmpty ? nil : StepAddress(path: path),
                    createdAt: created, startedAt: started.value, finishedAt: finishedAt.value,
                    lastActivityAt: lastActivity, sessions: sessions)
            case "failure":
                guard fields.count == 10, let kind = CachedFailure.Kind(rawValue: text(fields[5])),
                    let line = optionalInteger(fields[6]), let found = optionalInteger(fields[7]),
                    let supported = optionalInteger(fields[8]), let reason = unescape(fields[9])
                else { return nil }
                entry.failure = CachedFailure(
                    kind: kind, reason: reason, line: line.value.flatMap(Int.init(exactly:)),
                    found: found.value.flatMap(Int.init(exactly:)),
                    supported: supported.value.flatMap(Int.init(exactly:)))
            default:
                return nil
            }
            return (name, entry)
        }

        private static func fields(_ line: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
            line.split(separator: tab, omittingEmptySubsequences: false)
        }

        private static func text(_ field: ArraySlice<UInt8>) -> String {
            String(decoding: field, as: UTF8.self)
        }

        /// A decimal integer, optionally negative; `nil` for anything else, including empty.
        private static func integer(_ field: ArraySlice<UInt8>) -> Int64? {
            var digits = field[...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.count <= 19 else { return nil }
            var value: Int64 = 0
            for byte in digits {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflow, !carry else { return nil }
                value = sum
            }
            return negative ? -value : value
        }

        /// A field that may be empty: `value` is `nil` when it is.
        private struct OptionalField {
            let value: Int64?
        }

        /// An integer or an empty field (absent); `nil` when the field is neither.
        private static func optionalInteger(_ field: ArraySlice<UInt8>) -> OptionalField? {
            if field.isEmpty { return OptionalField(value: nil) }
            return integer(field).map { OptionalField(value: $0) }
        }

        private static func escape(_ text: String) -> String {
            guard
                text.utf8.contains(where: { $0 == backslash || $0 == tab || $0 == newline || $0 == UInt8(ascii: "\r") })
            else { return text }
            var escaped = ""
            for character in text.unicodeScalars {
                switch character {
                case "\\": escaped += "\\\\"
                case "\t": escaped += "\\t"
                case "\n": escaped += "\\n"
                case "\r": escaped += "\\r"
                default: escaped.unicodeScalars.append(character)
                }
            }
            return escaped
        }

        /// The text of an escaped field; `nil` for an escape that `escape` never writes.
        private static func unescape(_ field: ArraySlice<UInt8>) -> String? {
            guard field.contains(backslash) else { return text(field) }
            var bytes: [UInt8] = []
            var iterator = field.makeIterator()
            while let byte = iterator.next() {
                guard byte == backslash else {
                    bytes.append(byte)
                    continue
                }
                switch iterator.next() {
                case UInt8(ascii: "\\"): bytes.append(backslash)
                case UInt8(ascii: "t"): bytes.append(tab)
                case UInt8(ascii: "n"): bytes.append(newline)
                case UInt8(ascii: "r"): bytes.append(UInt8(ascii: "\r"))
                default: return nil
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
