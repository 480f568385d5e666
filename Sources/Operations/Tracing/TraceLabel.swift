/// Lets a value choose how it appears in message labels, e.g. `attempt(+7…4567)`.
///
/// Values that adopt ``Redactable`` appear redacted without adopting this; everything else
/// appears as its description when that is short, or as its type name.
public protocol TraceLabelConvertible {
    /// The text shown inside a label's parentheses.
    var traceLabel: String { get }
}

/// Builds the labels the engine records for launches and finishes.
public enum TraceLabel {
    /// Descriptions longer than this are replaced by the type name, so labels stay short.
    static let longestDescription = 32

    /// `name(value)`, e.g. `launch(phone)`, or `name` when the value is `Void`.
    public static func call(_ name: String, _ value: Any) -> String {
        describe(value).map { "\(name)(\($0))" } ?? name
    }

    /// `onFinish(value)` or `onFinish(error: reason)`.
    public static func finish<Value>(_ result: Result<Value, any Error>) -> String {
        switch result {
        case .success(let value): call("onFinish", value)
        case .failure(let error): "onFinish(error: \(describe(error) ?? "error"))"
        }
    }

    /// The short, redacted text for `value`; `nil` for `Void`.
    public static func describe(_ value: Any) -> String? {
        if value is Void { return nil }
        if let labelled = value as? any TraceLabelConvertible { return labelled.traceLabel }
        if let secret = value as? any Redactable { return secret.redacted }
        if let optional = value as? any OptionalProtocol { return optional.wrappedDescription }
        let text = String(describing: value)
        guard text.count > longestDescription || text.contains("(") else { return text }
        return valueName(of: type(of: value))
    }

    /// The name a value of `type` goes by in a note: the type's name in lower camel case, with
    /// an optional unwrapped and generic arguments dropped (`Optional<PhoneNumber>` is
    /// `phoneNumber`, `PhoneToken` is `phoneToken`). A leading acronym is lowered whole, as a
    /// Swift name spells it: `OTPPrompt` is `otpPrompt`, `URL` is `url`.
    public static func valueName(of type: Any.Type) -> String {
        var name = Substring(String(describing: type))
        while name.hasPrefix("Optional<"), name.hasSuffix(">") {
            name = name.dropFirst("Optional<".count).dropLast()
        }
        name = name.prefix { $0 != "<" && $0 != "?" }
        let capitals = name.prefix { $0.isUppercase }
        // In `OTPPrompt` the last capital of the run starts the next word: `otp` + `Prompt`.
        let lowered =
            capitals.count == name.count ? capitals : capitals.count > 1 ? capitals.dropLast() : capitals.prefix(1)
        return lowered.lowercased() + name.dropFirst(lowered.count)
    }
}

/// Unwraps optionals generically for ``TraceLabel``.
protocol OptionalProtocol {
    var wrappedDescription: String { get }
}

extension Optional: OptionalProtocol {
    var wrappedDescription: String {
        switch self {
        case .some(let value): TraceLabel.describe(value) ?? "()"
        case .none: "nil"
        }
    }
}
