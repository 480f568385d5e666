// The Keychain (Security's `SecItem` functions) exists only on Apple platforms; elsewhere the
// token lives in an owner-only file (`FileLocalStorage`), the default of opctl on Linux.
#if canImport(Security)
    public import Foundation
    import Security

    /// A ``LocalStorage`` in the Keychain: what an iOS team expects for a sign-in token.
    ///
    /// The token is one generic-password item of `service` under the account `auth-token`,
    /// holding the token's JSON (the clear token: that is the item's purpose, and why its access
    /// matters).
    ///
    /// - **Accessible after first unlock, this device only**
    ///   (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`): a run resumed in the background,
    ///   or a refresh while the device is locked, can still read the token once the person
    ///   unlocked the device after it started; a backup restored onto another device carries no
    ///   token, so that device signs in anew.
    /// - **Saved in place.** A save updates the item when it exists (`SecItemUpdate`) and adds it
    ///   otherwise (`SecItemAdd`); a failed save leaves the previous token as it was.
    /// - **Errors name the item, never the token**: the service, the account and the system's
    ///   sentence for the `OSStatus`.
    ///
    /// On macOS the items go to the data protection keychain (`kSecUseDataProtectionKeychain`),
    /// as on iOS, which needs the app's keychain-access-groups entitlement; a command-line tool
    /// without one passes `dataProtectionKeychain: false`, or keeps ``FileLocalStorage``.
    public struct KeychainLocalStorage: LocalStorage {
        /// The service the items belong to, usually the app's bundle identifier.
        public let service: String
        /// The keychain access group shared with an app extension, or `nil` for the app's own.
        public let accessGroup: String?
        private let dataProtectionKeychain: Bool

        private static let authAccount = "auth-token"

        /// Opens the storage; nothing is written until the first save.
        ///
        /// - Parameters:
        ///   - service: The service the items belong to, usually the app's bundle identifier.
        ///   - accessGroup: A keychain access group to share the token with an app extension.
        ///   - dataProtectionKeychain: Whether macOS uses the data protection keychain (as iOS
        ///     always does) rather than the file-based login keychain.
        public init(service: String, accessGroup: String? = nil, dataProtectionKeychain: Bool = true) {
            self.service = service
            self.accessGroup = accessGroup
            self.dataProtectionKeychain = dataProtectionKeychain
        }

        /// Replaces the auth token's item.
        public func saveAuthToken(_ token: AuthToken) throws(LocalStorageError) {
            try save(token, account: Self.authAccount)
        }

        /// Reads the auth token's item; no item is no token.
        public func loadAuthToken() throws(LocalStorageError) -> AuthToken? {
            try load(AuthToken.self, account: Self.authAccount)
        }

        /// Deletes the auth token's item; no item is fine.
        public func clearAuthToken() throws(LocalStorageError) {
            try delete(account: Self.authAccount)
        }

        // MARK: - Internals

        /// How errors name an item: never its contents.
        private func place(_ account: String) -> String {
            "the Keychain item \(account) of \(service)"
        }

        /// The attributes that find one item.
        private func query(_ account: String) -> [String: Any] {
            var query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: account,
            ]
            if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
            if dataProtectionKeychain { query[kSecUseDataProtectionKeychain as String] = true }
            return query
        }

        private func save(_ value: some Encodable, account: String) throws(LocalStorageError) {
            let data = try TokenEncoding.encode(value, for: place(account))
            let contents: [String: Any] = [
                kSecValueData as String: data,
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]
            var status = SecItemUpdate(query(account) as CFDictionary, contents as CFDictionary)
            if status == errSecItemNotFound {
                let item = query(account).merging(contents) { _, new in new }
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else {
                throw .unwritable(path: place(account), reason: Self.sentence(for: status))
            }
        }

        private func load<Value: Decodable>(_ type: Value.Type, account: String) throws(LocalStorageError) -> Value? {
            var search = query(account)
            search[kSecReturnData as String] = true
            search[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess else {
                throw .unreadable(path: place(account), reason: Self.sentence(for: status))
            }
            guard let data = item as? Data else { throw .corrupt(path: place(account)) }
            return try TokenEncoding.decode(Value.self, from: data, at: place(account))
        }

        private func delete(account: String) throws(LocalStorageError) {
            let status = SecItemDelete(query(account) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else {
                throw .unreadable(path: place(account), reason: Self.sentence(for: status))
            }
        }

        /// The system's sentence for a Keychain status, or its number.
        private static func sentence(for status: OSStatus) -> String {
            (SecCopyErrorMessageString(status, nil) as String?) ?? "Keychain error \(status)"
        }
    }
#endif
