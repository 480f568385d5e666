public import AuthFlow
import Operations

/// Where the stateful variants keep the phone token between their steps: what they pass through
/// storage instead of by value. The pure operations need none of it, so ``LocalStorage`` keeps
/// the auth token only.
///
/// ## Contract
/// - After `savePhoneToken(t)` returns, `loadPhoneToken()` returns `t`.
/// - A failed save leaves the previously saved token intact.
/// - `clearPhoneToken()` of an empty store succeeds.
public protocol PhoneTokenStore: Sendable {
    /// Saves the phone token of a sign-in attempt, replacing any saved before.
    ///
    /// - Parameter token: The phone token.
    /// - Throws: ``LocalStorageError`` when it cannot be written.
    func savePhoneToken(_ token: PhoneToken) throws(LocalStorageError)

    /// Loads the saved phone token.
    ///
    /// - Returns: The token, or `nil` when none is saved.
    /// - Throws: ``LocalStorageError`` when one is saved but cannot be read.
    func loadPhoneToken() throws(LocalStorageError) -> PhoneToken?

    /// Removes the saved phone token; removing none is not an error. What a flow built on the
    /// stateful operations must do before launching again after a failure, so that no step acts
    /// on a token an earlier attempt left behind.
    ///
    /// - Throws: ``LocalStorageError`` when it exists but cannot be removed.
    func clearPhoneToken() throws(LocalStorageError)
}

extension PhoneTokenStore {
    /// Loads the token with the messages the stateful diagrams draw; no token is
    /// ``MissingPhoneToken``.
    func load(trace: TraceScope?) -> Result<PhoneToken, any Error> {
        trace?.declare(.localStorage)
        trace?.message(to: .localStorage, "loadPhoneToken()")
        let loaded = Result { () throws(LocalStorageError) in try loadPhoneToken() }
        trace?.reply(from: .localStorage, loaded.replyLabel { $0?.redacted ?? "none" })
        return loaded.mapError { $0 as any Error }.flatMap { $0.map(Result.success) ?? .failure(MissingPhoneToken()) }
    }

    /// Saves the token with the messages the stateful diagrams draw.
    func save(_ token: PhoneToken, trace: TraceScope?) -> Result<Void, any Error> {
        trace?.message(to: .localStorage, "savePhoneToken(\(token.redacted))")
        let saved = Result { () throws(LocalStorageError) in try savePhoneToken(token) }
        trace?.reply(from: .localStorage, saved.replyLabel { "saved" })
        return saved.mapError { $0 }
    }
}

/// A ``PhoneTokenStore`` in memory: what the comparison's tests and diagrams keep the token in.
public final class InMemoryPhoneTokenStore: PhoneTokenStore {
    private let token: LockedState<PhoneToken?>

    /// Creates a store, optionally holding a token already.
    public init(token: PhoneToken? = nil) {
        self.token = LockedState(token)
    }

    /// Saves the token.
    public func savePhoneToken(_ token: PhoneToken) throws(LocalStorageError) {
        self.token.withLock { $0 = token }
    }

    /// Loads the token.
    public func loadPhoneToken() throws(LocalStorageError) -> PhoneToken? {
        token.withLock { $0 }
    }

    /// Forgets the token.
    public func clearPhoneToken() throws(LocalStorageError) {
        token.withLock { $0 = nil }
    }
}
