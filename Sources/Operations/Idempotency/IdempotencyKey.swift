/// The name a step with side effects gives one of its attempts, so that the service it calls can
/// recognise a repeat and answer it without acting twice.
///
/// A scenario that journals its runs gives every attempt of a step with side effects a key,
/// makes it durable in the journal before the operation launches, and hands it to the operation
/// in ``OpContext/idempotencyKey``. A rerun that finds the attempt *in doubt* (launched, never
/// finished) launches it again with the same key, so the backend sees a repeat instead of a new
/// request (the `Idempotency-Key` header of Docs/HTTP-API.md).
///
/// A key is a secret of sorts: whoever holds it can replay a request's answer. Its printed forms
/// are redacted; ``rawValue`` is for the wire and the journal only.
public struct IdempotencyKey: Sendable, Hashable, Codable, Redactable {
    /// The clear key, for the request header and the journal. Never print or log it.
    public let rawValue: String

    /// The longest key a service is expected to accept (Docs/HTTP-API.md).
    public static let maximumLength = 255

    /// Wraps a key received from a journal or made by the caller.
    ///
    /// - Parameter rawValue: The key; 1 to ``maximumLength`` characters.
    /// - Returns: `nil` when the key is empty or too long.
    public init?(_ rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= Self.maximumLength else { return nil }
        self.rawValue = rawValue
    }

    /// A fresh, random key: 128 bits as 32 lowercase hexadecimal digits.
    public static func make() -> IdempotencyKey {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        let hex = String(high, radix: 16).leftPadded(to: 16) + String(low, radix: 16).leftPadded(to: 16)
        return IdempotencyKey(unchecked: hex)
    }

    /// A maker of keys that counts instead of drawing random bits — `…0001`, `…0002`, … — for
    /// diagrams and tests whose output must not change from run to run. Never use it where keys
    /// reach a real service: two processes would make the same keys.
    ///
    /// ```swift
    /// let environment = OpEnvironment(makeIdempotencyKey: IdempotencyKey.sequence())
    /// ```
    ///
    /// - Parameter prefix: Hexadecimal-looking text the keys start with, so that sequences of
    ///   different tests differ; cut to 16 characters.
    /// - Returns: A thread-safe maker of keys.
    public static func sequence(prefix: String = "0") -> @Sendable () -> IdempotencyKey {
        let counter = LockedState(0)
        let head = String(prefix.prefix(16)).leftPadded(to: 16)
        return {
            let next = counter.withLock { count in
                count += 1
                return count
            }
            return IdempotencyKey(unchecked: head + String(next, radix: 16).leftPadded(to: 16))
        }
    }

    private init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    /// Decodes the bare key string, refusing an empty or oversized one.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let key = IdempotencyKey(text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath,
                    debugDescription: "an idempotency key has 1 to \(Self.maximumLength) characters"))
        }
        self = key
    }

    /// Encodes the bare key string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The printable form: `idk…9f3a`.
    public var redacted: String { "idk" + Redaction.token(rawValue).dropFirst(3) }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
