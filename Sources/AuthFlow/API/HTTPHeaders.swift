import Operations

/// HTTP header fields with case-insensitive names.
///
/// Names are stored lowercased, as HTTP/2 sends them, so `headers["Retry-After"]` and
/// `headers["retry-after"]` are the same field.
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    /// The fields, keyed by lowercased name.
    public private(set) var fields: [String: String]

    /// Creates headers from name-value pairs.
    ///
    /// - Parameter elements: The fields; later duplicates win.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = [:]
        for (name, value) in elements { self[name] = value }
    }

    /// Creates headers from a dictionary.
    ///
    /// - Parameter fields: The fields, names in any case.
    public init(_ fields: [String: String] = [:]) {
        self.fields = [:]
        for (name, value) in fields { self[name] = value }
    }

    /// The value of a field, or `nil`.
    public subscript(name: String) -> String? {
        get { fields[name.lowercased()] }
        set { fields[name.lowercased()] = newValue }
    }

    /// The fields as a printable string with credentials and idempotency keys redacted, for logs
    /// and traces: whoever holds either can act as the client or replay its answers.
    public var redactedDescription: String {
        fields.keys.sorted().map { name in
            let value = fields[name] ?? ""
            let printed =
                switch name {
                case "authorization":
                    value.firstIndex(of: " ").map {
                        value[..<$0] + " " + Redaction.token(String(value[value.index(after: $0)...]))
                    } ?? "…"
                case "idempotency-key": IdempotencyKey(value)?.redacted ?? "…"
                default: value
                }
            return "\(name): \(printed)"
        }.joined(separator: ", ")
    }
}
