public import Foundation
public import Operations

extension Trace: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, events
    }

    /// Decodes a trace, checking its format version before anything else.
    /// - Throws: ``TraceError`` for a foreign version or an unknown event kind, a `DecodingError`
    ///   for a malformed structure.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decode(Int.self, forKey: .version)
        guard version == Self.formatVersion else {
            throw TraceError.unsupportedVersion(found: version, supported: Self.formatVersion)
        }
        var list = try container.nestedUnkeyedContainer(forKey: .events)
        var events: [TraceEvent] = []
        if let count = list.count { events.reserveCapacity(count) }
        while !list.isAtEnd {
            let index = events.count
            do {
                events.append(try list.decode(TraceEvent.self))
            } catch TraceError.unknownEventKind(let kind, _) {
                throw TraceError.unknownEventKind(kind, event: index)
            }
        }
        self.init(events: events)
    }

    /// Encodes the trace as its format version and its events (participants are their
    /// declarations, so they are not saved twice).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        try container.encode(events, forKey: .events)
    }
}

// MARK: - API

extension Trace {
    /// Loads a trace saved by ``jsonData()``.
    /// - Parameter jsonData: The saved JSON.
    /// - Throws: ``TraceError/malformedJSON(_:)`` when the data is not JSON or not a trace,
    ///   ``TraceError/unsupportedVersion(found:supported:)`` for another format version,
    ///   ``TraceError/unknownEventKind(_:event:)`` for an event this build does not know.
    public init(jsonData: Data) throws(TraceError) {
        do {
            self = try JSONDecoder().decode(Trace.self, from: jsonData)
        } catch let error as TraceError {
            throw error
        } catch let error as DecodingError {
            throw .malformedJSON(Self.reason(for: error))
        } catch {
            throw .malformedJSON(String(describing: error))
        }
    }

    /// The trace as stable JSON: sorted keys, two-space indentation, `\n` line ends and one final
    /// newline, so saving the same trace twice gives identical bytes and a saved trace diffs well.
    ///
    /// Labels are stored as recorded; secrets were already redacted when the labels were built
    /// (see ``Redactable``), so the file holds no secret.
    /// - Returns: The UTF-8 JSON bytes.
    /// - Throws: ``TraceError/malformedJSON(_:)`` if Foundation's encoder fails (it does not for
    ///   the strings and numbers a trace holds).
    public func jsonData() throws(TraceError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            var data = try encoder.encode(self)
            data.append(0x0A)
            return data
        } catch {
            throw .malformedJSON("encoding failed: \(error)")
        }
    }

    private static func reason(for error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { key in
                key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)"
            }
            return keys.isEmpty ? "the top level" : "'" + keys.joined() + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)' at \(path(context))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "unexpected value at \(path(context)): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "not valid JSON" : "invalid value at \(path(context)): \(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }
}
