import Foundation
import Operations

extension RunIndex {
    /// The index file: a JSON header line, then one line per journal, its fields separated by
    /// tabs.
    ///
    /// ```
    /// {"count":2,"format":"operations.run-index","sum":"0a1b2c3d","version":5}
    /// <file>	<size>	<mtime ns>	<inode>	R	<scenario>	<finished>	<failed step>	<created>	…
    /// <file>	<size>	<mtime ns>	<inode>	F	<kind>	<reason>	<line>	<found>	<supported>
    /// ```
    ///
    /// A run's line (`R`) holds, in order: scenario, how it finished (empty while unfinished),
    /// failed step, created, started, finished, last activity (milliseconds since 1970), sessions,
    /// the run and step it was rerun from, the steps it undid (`-` when it is not undone), and the
    /// store's note on it (``RunSummary/listingNote``) when it has one, a field lines written
    /// before it do without. A
    /// journal that does not read (`F`) holds its cached error. An absent value is an empty field;
    /// a step address is `@` and its components `index:name` joined by `/`; a list joins its
    /// items with `,`. In every text `%`, tab, newline, carriage return, `/`, `:` and `,` are
    /// written `%XX`, so a field never holds its separators. Version 4 replaced a JSON object of
    /// every entry, whose decoding was most of the time of a listing of 50,000 runs
    /// (Docs/Benchmarks.md); an index of an older version is rebuilt.
    ///
    /// `sum` is the journal lines' checksum (Adler-32, `LineChecksum`) of everything after the
    /// header, so a damaged index is told apart from what was written. A cache, never the
    /// truth: an index that does not decode, or has another format, version, count or sum, is
    /// rebuilt from the journals (Sources/OperationsJournal/RunIndex.swift).
    enum Codec {
        private struct Header: Codable {
            var format: String
            var version: Int
            var count: Int
            var sum: String
        }

        private static let tab = UInt8(ascii: "\t")
        private static let newline = UInt8(ascii: "\n")

        /// The index file as read: each journal's line by its name, decoded only when asked.
        struct Lines {
            private var bytes: [UInt8] = []
            private var ranges: [String: Range<Int>] = [:]

            /// How many lines the index holds.
            var count: Int { ranges.count }
            /// The header's checksum of the lines; empty with no index.
            private(set) var checksum = ""

            /// No index.
            init() {}

            /// The lines of an index's bytes; `nil` when anything about them is not as written.
            /// Only each line's name is read here.
            init?(_ bytes: [UInt8]) {
                guard let end = bytes.firstIndex(of: newline) else { return nil }
                let body = bytes[(end + 1)...]
                guard let header = try? JSONDecoder().decode(Header.self, from: Data(bytes[..<end])),
                    header.format == format, header.version == version, header.sum == sum(of: body)
                else { return nil }
                ranges.reserveCapacity(header.count)
                var start = body.startIndex
                while start < body.endIndex {
                    let stop = body[start...].firstIndex(of: newline) ?? body.endIndex
                    guard let nameEnd = body[start..<stop].firstIndex(of: tab), let name = text(body[start..<nameEnd])
                    else { return nil }
                    ranges[name] = start..<stop
                    start = stop + 1
                }
                guard ranges.count == header.count else { return nil }
                self.bytes = bytes
                self.checksum = header.sum
            }

            /// The line of the journal called `name`, if the index has one.
            func line(_ name: String) -> ArraySlice<UInt8>? {
                ranges[name].map { bytes[$0] }
            }

            /// The names of the journals whose lines `isIncluded` picks, each line read as it is.
            func names(where isIncluded: (ArraySlice<UInt8>) -> Bool) -> [String] {
                ranges.compactMap { name, range in isIncluded(bytes[range]) ? name : nil }
            }
        }

        /// The lines of an index being written, in the order they are added.
        struct Body {
            private var bytes: [UInt8] = []
            /// How many lines it holds.
            private(set) var count = 0

            /// Adds a line read from an index.
            mutating func append(line: ArraySlice<UInt8>) {
                bytes += line
                bytes.append(newline)
                count += 1
            }

            /// Adds the line of `entry`, the journal called `name`.
            mutating func append(name: String, _ entry: Entry) {
                bytes += fields(name: name, entry).joined(separator: [tab])
                bytes.append(newline)
                count += 1
            }

            /// The index file's bytes: the header, then the lines.
            func file() -> [UInt8] {
                let encoder = JSONEncoder()
                encoder.outputFormatting = .sortedKeys
                let header = Header(format: format, version: version, count: count, sum: sum(of: bytes[...]))
                guard let head = try? encoder.encode(header) else { return [] }
                return Array(head) + [newline] + bytes
            }
        }

        private static func sum(of body: ArraySlice<UInt8>) -> String {
            LineChecksum.hex(LineChecksum.adler32(body))
        }

        /// The journal's stamp a line records; `nil` when it does not read.
        static func stamp(in line: ArraySlice<UInt8>) -> FileStamp? {
            guard let size = field(1, of: line).flatMap(number), let modified = field(2, of: line).flatMap(number),
                let inode = field(3, of: line).flatMap(number).flatMap(UInt64.init(exactly:))
            else { return nil }
            return FileStamp(size: size, modified: modified, inode: inode)
        }

        /// The run a line's run was rerun from, read without the rest of the line; `nil` for a
        /// run that was not, or a line that does not read.
        static func rerunOf(in line: ArraySlice<UInt8>) -> RunID? {
            guard field(4, of: line)?.elementsEqual("R".utf8) == true, let run = field(13, of: line), !run.isEmpty
            else { return nil }
            return text(run).flatMap { try? RunID(validating: $0) }
        }

        /// The `index`th field of `line`, from 0.
        private static func field(_ index: Int, of line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
            var start = line.startIndex
            for _ in 0..<index {
                guard let tabAt = line[start...].firstIndex(of: tab) else { return nil }
                start = tabAt + 1
            }
            return line[start..<(line[start...].firstIndex(of: tab) ?? line.endIndex)]
        }

        // MARK: - One entry

        private static func fields(name: String, _ entry: Entry) -> [[UInt8]] {
            let stamp = [text(name), number(entry.stamp.size), number(entry.stamp.modified), number(entry.stamp.inode)]
            if let run = entry.run {
                return stamp + [
                    Array("R".utf8), text(run.scenario), text(run.finished?.rawValue), address(run.failedStep),
                    number(run.createdAt), number(run.startedAt), number(run.finishedAt), number(run.lastActivityAt),
                    number(run.sessions), text(run.rerunOf?.run.rawValue), address(run.rerunOf?.step),
                    run.undone.map { names in Array(names.map { text($0) }.joined(separator: [UInt8(ascii: ",")])) }
                        ?? Array("-".utf8),
                ] + (run.note.map { [text($0)] } ?? [])
            }
            let failure = entry.failure
            return stamp + [
                Array("F".utf8), text(failure?.kind.rawValue), text(failure?.reason), number(failure?.line),
                number(failure?.found), number(failure?.supported),
            ]
        }

        static func entry(in line: ArraySlice<UInt8>) -> Entry? {
            let fields = line.split(separator: tab, omittingEmptySubsequences: false)
            guard fields.count >= 5, text(fields[0]) != nil, let size = number(fields[1]),
                let modified = number(fields[2]), let inode = number(fields[3]).flatMap(UInt64.init(exactly:))
            else { return nil }
            let stamp = FileStamp(size: size, modified: modified, inode: inode)
            switch (fields[4].elementsEqual("R".utf8), fields.count) {
            case (true, 16), (true, 17):
                guard let scenario = text(fields[5]), let failedStep = address(fields[7]),
                    let rerunStep = address(fields[14]), let createdAt = number(fields[8]),
                    let lastActivityAt = number(fields[11]), let sessions = number(fields[12]),
                    let undone = undoneNames(fields[15])
                else { return nil }
                var finished: RunStatus?
                if !fields[6].isEmpty {
                    guard let status = text(fields[6]).flatMap(RunStatus.init(rawValue:)) else { return nil }
                    finished = status
                }
                var rerunOf: RerunOrigin?
                if !fields[13].isEmpty {
                    guard let run = text(fields[13]).flatMap({ try? RunID(validating: $0) }), let rerunStep else {
                        return nil
                    }
                    rerunOf = RerunOrigin(run: run, step: rerunStep)
                }
                let run = CachedRun(
                    scenario: scenario, finished: finished, failedStep: failedStep, createdAt: createdAt,
                    startedAt: number(fields[9]), finishedAt: number(fields[10]), lastActivityAt: lastActivityAt,
                    sessions: Int(sessions), rerunOf: rerunOf, undone: undone,
                    note: fields.count == 17 ? text(fields[16]) : nil)
                return Entry(stamp: stamp, run: run)
            case (false, 10):
                guard fields[4].elementsEqual("F".utf8), let kindText = text(fields[5]),
                    let kind = CachedFailure.Kind(rawValue: kindText), let reason = text(fields[6])
                else { return nil }
                let failure = CachedFailure(
                    kind: kind, reason: reason, line: number(fields[7]).map(Int.init),
                    found: number(fields[8]).map(Int.init), supported: number(fields[9]).map(Int.init))
                return Entry(stamp: stamp, failure: failure)
            default:
                return nil
            }
        }

        // MARK: - Fields

        /// The bytes `%`-escaped in a text field: its separators, and `%` itself.
        private static let escaped = Set("%\t\n\r/:,".utf8)

        private static func text(_ value: String?) -> [UInt8] {
            guard let value else { return [] }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(value.utf8.count)
            for byte in value.utf8 {
                if escaped.contains(byte) {
                    bytes += Array("%".utf8) + Array(LineChecksum.hex(UInt32(byte)).suffix(2).utf8)
                } else {
                    bytes.append(byte)
                }
            }
            return bytes
        }

        private static func text(_ field: ArraySlice<UInt8>) -> String? {
            guard field.contains(UInt8(ascii: "%")) else { return String(decoding: field, as: UTF8.self) }
            var bytes: [UInt8] = []
            var index = field.startIndex
            while index < field.endIndex {
                if field[index] == UInt8(ascii: "%") {
                    guard index + 2 < field.endIndex,
                        let value = LineChecksum.value(hex: Array("000000".utf8) + field[(index + 1)...(index + 2)])
                    else { return nil }
                    bytes.append(UInt8(value))
                    index += 3
                } else {
                    bytes.append(field[index])
                    index += 1
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The undone steps' names: `.some(nil)` for `-` (not undone), `nil` when malformed.
        private static func undoneNames(_ field: ArraySlice<UInt8>) -> [String]?? {
            if field.elementsEqual("-".utf8) { return .some(nil) }
            var names: [String] = []
            for item in field.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) where !field.isEmpty
            {
                guard let name = text(item) else { return nil }
                names.append(name)
            }
            return .some(names)
        }

        private static func number(_ value: (some BinaryInteger)?) -> [UInt8] {
            value.map { Array(String($0).utf8) } ?? []
        }

        /// A decimal field; `nil` when empty or not a number.
        private static func number(_ field: ArraySlice<UInt8>) -> Int64? {
            guard !field.isEmpty, field.count <= 20 else { return nil }
            var digits = field[...]
            let negative = digits.first == UInt8(ascii: "-")
            if negative { digits = digits.dropFirst() }
            guard !digits.isEmpty else { return nil }
            var value: Int64 = 0
            for byte in digits {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflowAgain) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflow, !overflowAgain else { return nil }
                value = sum
            }
            return negative ? -value : value
        }

        private static func address(_ value: StepAddress?) -> [UInt8] {
            guard let value else { return [] }
            let components = value.path.map { number($0.index) + Array(":".utf8) + text($0.name) }
            return Array("@".utf8) + components.joined(separator: Array("/".utf8))
        }

        /// An address field: `.some(nil)` when empty (no address), `nil` when malformed.
        private static func address(_ field: ArraySlice<UInt8>) -> StepAddress?? {
            guard !field.isEmpty else { return .some(nil) }
            guard field.first == UInt8(ascii: "@") else { return nil }
            let rest = field.dropFirst()
            guard !rest.isEmpty else { return .some(StepAddress(path: [])) }
            var path: [StepAddress.Component] = []
            for part in rest.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
                let pieces = part.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
                guard pieces.count == 2, let index = number(pieces[0]).flatMap(Int.init(exactly:)),
                    let name = text(pieces[1])
                else { return nil }
                path.append(StepAddress.Component(index: index, name: name))
            }
            return .some(StepAddress(path: path))
        }
    }
}
