import AuthFlow
import Operations

/// Reading and writing the phone token of the stateful operations, with their messages.
enum PhoneTokenStorage {
    static func load(from storage: any LocalStorage, trace: TraceScope?) -> Result<PhoneToken, any Error> {
        trace?.declare(.localStorage)
        trace?.message(to: .localStorage, "loadPhoneToken()")
        let loaded = Result { () throws(LocalStorageError) in try storage.loadPhoneToken() }
        trace?.reply(from: .localStorage, loaded.replyLabel { $0?.redacted ?? "none" })
        return loaded.mapError { $0 as any Error }.flatMap { $0.map(Result.success) ?? .failure(MissingPhoneToken()) }
    }

    static func save(_ token: PhoneToken, to storage: any LocalStorage, trace: TraceScope?) -> Result<Void, any Error> {
        trace?.message(to: .localStorage, "savePhoneToken(\(token.redacted))")
        let saved = Result { () throws(LocalStorageError) in try storage.savePhoneToken(token) }
        trace?.reply(from: .localStorage, saved.replyLabel { "saved" })
        return saved.mapError { $0 }
    }
}
