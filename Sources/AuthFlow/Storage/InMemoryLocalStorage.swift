import Operations

/// A ``LocalStorage`` in memory: for tests, previews and a CLI run that must leave no trace.
public final class InMemoryLocalStorage: LocalStorage {
    private let token: LockedState<AuthToken?>

    /// Creates a storage, optionally holding a token already.
    public init(token: AuthToken? = nil) {
        self.token = LockedState(token)
    }

    /// Saves the token.
    public func saveAuthToken(_ token: AuthToken) throws(LocalStorageError) {
        self.token.withLock { $0 = token }
    }

    /// Loads the token.
    public func loadAuthToken() throws(LocalStorageError) -> AuthToken? {
        token.withLock { $0 }
    }

    /// Forgets the token.
    public func clearAuthToken() throws(LocalStorageError) {
        token.withLock { $0 = nil }
    }
}
