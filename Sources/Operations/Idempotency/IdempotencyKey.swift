/// The name of one request with side effects, so that the service it goes to can recognise a
/// repeat and answer it without acting twice.
///
/// ## The rule
///
/// A key names a request: the run, the step's address, the value the step was launched with,
/// and which request of the step it is. A scenario gives each launch of a step with side effects
/// one key (``OpContext/idempotencyKey``), written and synced in the journal before the
/// operation launches; the operation asks its context for one key per request it sends
/// (``OpContext/idempotencyKey(for:)``: `"send"`, `"verify"`), each derived from the launch's key,
/// so two requests never share one and none exists that is not on disk.
///
/// Every retry and every rerun of the step with the same value carries the same key, whatever
/// errors came between: an answer that got lost followed by a definite "unavailable" does not
/// free it, because the first attempt may have acted. Only a launch with another value (a
/// failure handler's relaunch with a new code, another card) is a new request with a new key.
///
/// A key is a secret of sorts: whoever holds it can replay a request's answer. Its printed forms
/// are redacted; ``rawValue`` is for the wire and the journal only.
public struct IdempotencyKey: Sendable, Hashable, Codable, Redactable {
    /// The clear key, for the request header and the journal. Never print or log it.
    public let rawValue: String

    /// The longest key a service is expected to accept (Docs/HTTP-API.md).
    public static let maximumLength = 255

    /// Wraps a key received from a journal or made by the caller; `nil` unless it has 1 to
    /// ``maximumLength`` characters.
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
    /// `prefix`, cut to 16 characters, starts every key, so that sequences of different tests
    /// differ.
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

    /// The key of one request of the launch this key belongs to: the same launch key and name
    /// give the same key in every process, different names give different keys.
    ///
    /// An operation that sends several requests with side effects (send a code, then verify it)
    /// gives each its own key, as a server that scopes keys to one request expects; the
    /// derivation, not a second journal line, is what makes each one as durable as the launch key.
    /// `request` names the request: `"send"`, `"verify"`, `"charge"`.
    public func forRequest(_ request: String) -> IdempotencyKey {
        // Two 64-bit FNV-1a lanes with different offsets, each finished by SplitMix64's mixer:
        // stable across processes and platforms (unlike `Hasher`), and the launch key's 128
        // random bits make two derived keys of different launches differ.
        var lanes: (UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4)
        for byte in rawValue.utf8 + [0] + request.utf8 {
            lanes.0 = (lanes.0 ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            lanes.1 = (lanes.1 ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex =
            String(Self.mixed(lanes.0), radix: 16).leftPadded(to: 16)
            + String(Self.mixed(lanes.1 ^ lanes.0), radix: 16).leftPadded(to: 16)
        return IdempotencyKey(unchecked: hex)
    }

    private static func mixed(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
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
