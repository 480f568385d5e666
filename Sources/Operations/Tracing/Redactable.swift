/// A value that is secret (a token, an SMS code) and must never appear in clear in a diagram,
/// a log, a trace or terminal output.
///
/// A conforming type supplies ``redacted``; every textual form of the value then uses it:
/// string interpolation (`"onFinish(\(token))"`), `String(describing:)`, `String(reflecting:)`
/// and `dump`. Since trace labels are built by interpolation, a label built from a secret holds
/// only the redacted form, and so do saved traces.
///
/// ```swift
/// struct PhoneToken: Redactable {
///     let rawValue: String
///     var redacted: String { Redaction.token(rawValue) }   // "tok…a1f3"
/// }
/// ```
///
/// Contract: ``redacted`` must not reveal enough to rebuild the secret, and must be stable for a
/// value (so golden diagrams stay identical).
public protocol Redactable: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The form shown wherever the value is printed, e.g. `tok…a1f3` or `••••••`.
    var redacted: String { get }
}

// MARK: - Default implementations

extension Redactable {
    /// The redacted form, so interpolation never prints the secret.
    public var description: String { redacted }

    /// The redacted form, so `String(reflecting:)` and debuggers' summaries never print it.
    public var debugDescription: String { redacted }

    /// A mirror with no children, so `dump` and reflection-based printers cannot reach the
    /// stored secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
