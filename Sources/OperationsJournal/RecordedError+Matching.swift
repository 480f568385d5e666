import Foundation
import Operations

extension RecordedError {
    /// Whether the recorded error's innermost error was a `type`: compared by the type's name
    /// with its module, or by its plain name in a journal written before errors kept the module.
    public func matches<T: Error>(_ type: T.Type) -> Bool {
        guard let qualifiedType else { return self.type == String(describing: type) }
        return qualifiedType == String(reflecting: type)
    }

    /// The recorded innermost error as the app's own `type`, decoded from the value the journal
    /// kept.
    ///
    /// ```swift
    /// enum OnboardingError: Error, Codable { case underage(minimumAge: Int), nameTaken }
    ///
    /// let record = try store.load(runID)
    /// if case .underage(let age)? = record.error?.decode(as: OnboardingError.self) { … }
    /// ```
    ///
    /// - Parameter type: The app's error type, `Codable` when the run recorded it.
    /// - Returns: The error, or `nil` when it was not a `type` (``matches(_:)``), its value was
    ///   not kept (not `Encodable`, confidential, or a journal from before values were kept),
    ///   or it no longer decodes as `type` (the type changed since the run).
    public func decode<T: Error & Decodable>(as type: T.Type) -> T? {
        guard matches(type), let value else { return nil }
        return try? JSONDecoder().decode(type, from: Data(value.utf8))
    }

    /// The innermost error of `error` as the app's own `type`, whether the run failed in this
    /// process or a rerun failed it again from its journal: what an app matches one way for both.
    ///
    /// A live failure holds the app's error itself (the root cause of a `StepFailure`); a step a
    /// rerun failed again from its record (an undoing the rerun finished) holds a
    /// ``RecordedError``, decoded here.
    ///
    /// ```swift
    /// catch {
    ///     if RecordedError.cause(of: error, as: OnboardingError.self) == .nameTaken { askForAnotherName() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - error: The error a scenario failed with, or any error below it.
    ///   - type: The app's error type.
    /// - Returns: The innermost error as `type`, or `nil` when it is not one.
    public static func cause<T: Error & Decodable>(of error: any Error, as type: T.Type) -> T? {
        switch error {
        case let match as T: match
        case let recorded as RecordedError: recorded.decode(as: type)
        case let failure as StepFailure: cause(of: failure.error, as: type)
        case let undoing as CompensationFailure: cause(of: undoing.failure, as: type)
        default: nil
        }
    }
}
