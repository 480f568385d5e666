/// The one place that decides what a secret looks like when it is printed.
///
/// Kept as plain functions so the secret types can later adopt a shared `Redactable` protocol from
/// the tracing work without changing what they print.
enum Redaction {
    /// The redacted form of every SMS code, whatever its length, so a log does not even reveal how
    /// many digits a code has.
    static let code = "••••••"

    /// Shows a token as its first three characters, an ellipsis and its last four (`tok…a1f3`).
    ///
    /// A token shorter than 12 characters is shown as `…` alone: seven visible characters of a
    /// short token would be most of it.
    static func token(_ value: String) -> String {
        guard value.count >= 12 else { return "…" }
        return "\(value.prefix(3))…\(value.suffix(4))"
    }
}
