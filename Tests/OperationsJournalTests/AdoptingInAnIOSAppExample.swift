import Foundation
import Operations
import OperationsJournal
import OperationsTestSupport
import Testing

// AdoptingInAnIOSApp.md's example, compiled: the block between the markers below must be the
// article's code block byte for byte (the last test checks). On Linux the parts under
// `#if canImport(CryptoKit)` and `#if canImport(UIKit)` are not compiled; the rest is.

// AdoptingInAnIOSApp example begin
/// How the app keeps its runs.
enum AppRuns {
    /// Application Support: kept and backed up, never purged like Caches, never shown in the
    /// Files app like Documents. An App Group container instead when an extension (a widget, a
    /// share extension) reads or resumes the runs too.
    static func stateDirectory(appGroup: String? = nil) throws -> URL {
        // App Group containers exist only on Apple platforms.
        #if canImport(Darwin)
            if let appGroup,
                let container = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)
            {
                return container.appendingPathComponent("Library/Application Support/Runs", isDirectory: true)
            }
        #endif
        let support = try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        return support.appendingPathComponent("Runs", isDirectory: true)
    }

    /// The one store the app's runs go through, sealing their secrets where the platform can.
    static func makeStore(appGroup: String? = nil) throws -> RunStore {
        // CryptoKit and the Keychain exist only on Apple platforms.
        #if canImport(CryptoKit)
            let sealer: (any JournalSealer)? = try KeychainSealer(service: "com.example.shop.journal")
        #else
            let sealer: (any JournalSealer)? = nil
        #endif
        return RunStore(stateDirectory: try stateDirectory(appGroup: appGroup), sealer: sealer)
    }
}

// CryptoKit and the Keychain exist only on Apple platforms.
#if canImport(CryptoKit)
    import CryptoKit
    import Security

    /// Seals a journal's confidential values with AES-GCM, under a key kept in the Keychain:
    /// made on the first launch, readable after the first unlock (a run resumed in the
    /// background can open its values), never restored onto another device.
    struct KeychainSealer: JournalSealer {
        enum Failure: Error {
            case notSealed
            case keychain(OSStatus)
        }

        let key: SymmetricKey

        init(service: String) throws {
            key = try Self.key(service: service)
        }

        func seal(_ plaintext: [UInt8]) throws -> [UInt8] {
            guard let combined = try AES.GCM.seal(plaintext, using: key).combined else { throw Failure.notSealed }
            return Array(combined)
        }

        func open(_ sealed: [UInt8]) throws -> [UInt8] {
            Array(try AES.GCM.open(AES.GCM.SealedBox(combined: sealed), using: key))
        }

        /// The key of earlier launches, or a new one kept for the next.
        private static func key(service: String) throws -> SymmetricKey {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: service,
                kSecAttrAccount as String: "journal-key",
                kSecUseDataProtectionKeychain as String: true,
            ]
            var found: CFTypeRef?
            let search = item.merging([kSecReturnData as String: true]) { _, new in new }
            if SecItemCopyMatching(search as CFDictionary, &found) == errSecSuccess, let data = found as? Data {
                return SymmetricKey(data: data)
            }
            let key = SymmetricKey(size: .bits256)
            let stored = item.merging([
                kSecValueData as String: key.withUnsafeBytes { Data($0) },
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ]) { _, new in new }
            let status = SecItemAdd(stored as CFDictionary, nil)
            guard status == errSecSuccess else { throw Failure.keychain(status) }
            return key
        }
    }
#endif

// In an app target built with main-actor default isolation (Xcode 26's default for new apps,
// `.defaultIsolation(MainActor.self)` in a package), a type without an annotation is isolated to
// the main actor. Operations, their values and their services run on any thread: `nonisolated`.

/// A value a step passes on and a journal encodes, off the main actor.
nonisolated struct Profile: Sendable, Codable, Equatable {
    var name: String
}

/// A key service: called from the operation's task, on any thread.
nonisolated protocol ProfileService: Sendable {
    func profile(of user: String) async throws -> Profile
}

nonisolated final class LoadProfileOp: AsyncOp, PureOp {
    private let service: any ProfileService
    init(service: any ProfileService) { self.service = service }

    func run(_ user: String, context: OpContext<String>) async throws -> Profile {
        try await service.profile(of: user)
    }
}

/// The screen's model stays on the main actor and awaits the operation.
@MainActor
final class ProfileModel {
    private(set) var profile: Profile?
    private let makeLoadProfile: @Sendable () -> LoadProfileOp

    init(makeLoadProfile: @escaping @Sendable () -> LoadProfileOp) {
        self.makeLoadProfile = makeLoadProfile
    }

    func load(user: String) async throws {
        profile = try await makeLoadProfile().launch(with: user)
    }
}

// UIApplication's background tasks exist only in UIKit, which watchOS does not have.
#if canImport(UIKit) && !os(watchOS)
    import UIKit

    extension AppRuns {
        /// Launches a run with time asked for in the background. When the time runs out, the
        /// run is cancelled before the app is suspended: its journal keeps it resumable, and
        /// the app reruns it when it comes back.
        @MainActor
        static func launchAskingForTime<Input: Sendable, Output: Sendable>(
            _ scenario: Scenario<Input, Output>, _ context: OpContext<Input>
        ) async throws -> Output {
            let token = CancellationToken(linkedTo: context.cancellation)
            var launched = context
            launched.cancellation = token
            let task = UIApplication.shared.beginBackgroundTask(withName: scenario.name) { token.cancel() }
            defer { UIApplication.shared.endBackgroundTask(task) }
            return try await scenario.launch(launched)
        }
    }
#endif
// AdoptingInAnIOSApp example end

private struct StubProfiles: ProfileService {
    func profile(of user: String) async throws -> Profile { Profile(name: user.capitalized) }
}

struct AdoptingInAnIOSAppExampleTests {
    @Test func theStateDirectoryIsInApplicationSupport() throws {
        let directory = try AppRuns.stateDirectory()
        #expect(directory.lastPathComponent == "Runs")
        let support = try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: false)
        #expect(directory.deletingLastPathComponent().standardizedFileURL == support.standardizedFileURL)
    }

    @Test func theStoreSealsOnlyWhereThePlatformCan() throws {
        let store = try AppRuns.makeStore()
        #if canImport(CryptoKit)
            #expect(store.sealer != nil)
        #else
            #expect(store.sealer == nil)
        #endif
    }

    @Test @MainActor func aMainActorModelAwaitsANonisolatedOperation() async throws {
        let model = ProfileModel { LoadProfileOp(service: StubProfiles()) }
        try await model.load(user: "ada")
        #expect(model.profile == Profile(name: "Ada"))
    }

    @Test func theArticleShowsThisCode() throws {
        let example = try ArticleText.example("AdoptingInAnIOSApp", in: #filePath)
        let article = try ArticleText.article(
            "Sources/OperationsJournal/OperationsJournal.docc/AdoptingInAnIOSApp.md")
        #expect(ArticleText.shows(example, importing: ["Foundation", "Operations", "OperationsJournal"], in: article))
    }
}
