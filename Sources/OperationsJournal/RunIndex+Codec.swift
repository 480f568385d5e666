import Foundation
import Operations

extension RunIndex {
    /// The index file: a header line, then the entries, both JSON.
    ///
    /// ```
    /// {"count":2000,"format":"operations.run-index","sum":"0a1b2c3d","version":2}
    /// {"<journal file>":{"stamp":{…},"run":{…}},…}
    /// ```
    ///
    /// `sum` is the journal lines' checksum (Adler-32, `LineChecksum`) of the second line, so
    /// an index damaged into other valid JSON is told apart from what was written. A cache,
    /// never the truth: an index that does not decode, or has another format, version, count or
    /// sum, is rebuilt from the journals (Sources/OperationsJournal/RunIndex.swift).
    enum Codec {
        private struct Header: Codable {
            var format: String
            var version: Int
            var count: Int
            var sum: String
        }

        /// The index's bytes.
        static func encode(_ entries: [String: Entry]) -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            guard let body = try? encoder.encode(entries) else { return [] }
            let header = Header(format: format, version: version, count: entries.count, sum: sum(of: body))
            guard let head = try? encoder.encode(header) else { return [] }
            return Array(head) + [UInt8(ascii: "\n")] + Array(body)
        }

        /// The entries in an index's bytes; `nil` when anything about them is not as written.
        static func decode(_ bytes: [UInt8]) -> [String: Entry]? {
            guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let body = Data(bytes[(end + 1)...])
            let decoder = JSONDecoder()
            guard let header = try? decoder.decode(Header.self, from: Data(bytes[..<end])),
                header.format == format, header.version == version, header.sum == sum(of: body),
                let entries = try? decoder.decode([String: Entry].self, from: body), entries.count == header.count
            else { return nil }
            return entries
        }

        private static func sum(of body: Data) -> String {
            String(format: "%08x", LineChecksum.adler32(body))
        }
    }
}
