/// Where the app keeps the auth token between launches: the other key service of sign-in.
///
/// Synchronous and throwing, because the medium is a small local file or memory and a callback
/// would only add a thread hop; an implementation over a slow medium should be called off the
/// main thread by its user.
///
/// ## Contract
/// - After `saveAuthToken(t)` returns, `loadAuthToken()` returns `t`, also in a later process for
///   a persistent implementation.
/// - A failed save leaves the previously saved token intact (no half-written state).
/// - `clearAuthToken()` of an empty storage succeeds.
/// - A stored token is a secret: only its owner may read it.
public protocol LocalStorage: Sendable {
    /// Saves the token, replacing any saved before.
    ///
    /// - Parameter token: The token.
    /// - Throws: ``LocalStorageError`` when it cannot be written.
    func saveAuthToken(_ token: AuthToken) throws(LocalStorageError)

    /// Loads the saved token.
    ///
    /// - Returns: The token, or `nil` when none is saved.
    /// - Throws: ``LocalStorageError`` when one is saved but cannot be read.
    func loadAuthToken() throws(LocalStorageError) -> AuthToken?

    /// Removes the saved token, if any.
    ///
    /// - Throws: ``LocalStorageError`` when it exists but cannot be removed.
    func clearAuthToken() throws(LocalStorageError)
}

/// Why the auth token could not be saved, loaded or cleared.
public enum LocalStorageError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The token could not be written; `reason` is the system's.
    case unwritable(path: String, reason: String)
    /// The token file exists but could not be read or removed.
    case unreadable(path: String, reason: String)
    /// The token file does not hold a token (damaged or written by something else).
    case corrupt(path: String)

    /// A sentence naming the file and the problem; never the token.
    public var description: String {
        switch self {
        case .unwritable(let path, let reason): "Cannot save the sign-in token to \(path): \(reason)."
        case .unreadable(let path, let reason): "Cannot read the sign-in token at \(path): \(reason)."
        case .corrupt(let path): "The sign-in token file \(path) is damaged; sign in again."
        }
    }
}
