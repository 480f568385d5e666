import AuthFlow
import Operations
import StatefulAuthFlow

/// A ``LocalStorage`` (and the stateful variants' ``PhoneTokenStore``) that records every call, so a test can prove that a pure operation never
/// touched storage (not even to read) and that a stateful one wrote exactly once. Saves can be
/// made to fail.
final class RecordingLocalStorage: LocalStorage, PhoneTokenStore {
    enum Call: Hashable, Sendable {
        case saveAuthToken(AuthToken)
        case loadAuthToken
        case clearAuthToken
        case savePhoneToken(PhoneToken)
        case loadPhoneToken
        case clearPhoneToken
    }

    private let recorded = LockedState<[Call]>([])
    private let stored = InMemoryLocalStorage()
    private let storedPhoneToken = InMemoryPhoneTokenStore()
    private let saveError: LocalStorageError?

    /// - Parameter saveError: When set, every save records its call and throws this.
    init(saveError: LocalStorageError? = nil) {
        self.saveError = saveError
    }

    var calls: [Call] { recorded.withLock { $0 } }

    func saveAuthToken(_ token: AuthToken) throws(LocalStorageError) {
        recorded.withLock { $0.append(.saveAuthToken(token)) }
        if let saveError { throw saveError }
        try stored.saveAuthToken(token)
    }

    func loadAuthToken() throws(LocalStorageError) -> AuthToken? {
        recorded.withLock { $0.append(.loadAuthToken) }
        return try stored.loadAuthToken()
    }

    func clearAuthToken() throws(LocalStorageError) {
        recorded.withLock { $0.append(.clearAuthToken) }
        try stored.clearAuthToken()
    }

    func savePhoneToken(_ token: PhoneToken) throws(LocalStorageError) {
        recorded.withLock { $0.append(.savePhoneToken(token)) }
        if let saveError { throw saveError }
        try storedPhoneToken.savePhoneToken(token)
    }

    func loadPhoneToken() throws(LocalStorageError) -> PhoneToken? {
        recorded.withLock { $0.append(.loadPhoneToken) }
        return try storedPhoneToken.loadPhoneToken()
    }

    func clearPhoneToken() throws(LocalStorageError) {
        recorded.withLock { $0.append(.clearPhoneToken) }
        try storedPhoneToken.clearPhoneToken()
    }
}
