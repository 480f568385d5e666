import Operations

/// A ``LocalStorage`` in memory: for tests, previews and a CLI run that must leave no trace.
public final class InMemoryLocalStorage: LocalStorage {
    private let token: LockedState<AuthToken?>
    private let phoneToken: LockedState<PhoneToken?>

    /// Creates a storage, optionally holding tokens already.
    public init(token: AuthToken? = nil, phoneToken: PhoneToken? = nil) {
        self.token = LockedState(token)
        self.phoneToken = LockedState(phoneToken)
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

    /// Saves the phone token.
    public func savePhoneToken(_ token: PhoneToken) throws(LocalStorageError) {
        phoneToken.withLock { $0 = token }
    }

    /// Loads the phone token.
    public func loadPhoneToken() throws(LocalStorageError) -> PhoneToken? {
        phoneToken.withLock { $0 }
    }

    /// Forgets the phone token.
    public func clearPhoneToken() throws(LocalStorageError) {
        phoneToken.withLock { $0 = nil }
    }
}
