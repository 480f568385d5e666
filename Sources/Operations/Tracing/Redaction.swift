/// Ready-made redacted forms for the secrets the engine handles, and the rules they follow.
///
/// Redacted forms are plain `String`s with a fixed shape, so diagrams stay deterministic. The
/// text renderer's ASCII charset maps `…` to `~` and `•` to `*` column for column.
public enum Redaction {
    /// The glyph that stands for one hidden character.
    public static let maskGlyph: Character = "•"

    /// A token shortened to its first three and last four characters, e.g. `tok…a1f3`.
    ///
    /// Tokens shorter than 12 characters are fully masked (`•••…`), since showing seven of their
    /// characters would reveal most of them.
    /// - Parameter raw: The secret token.
    /// - Returns: The shortened form.
    public static func token(_ raw: some StringProtocol) -> String {
        guard raw.count >= 12 else { return "•••…" }
        return "\(raw.prefix(3))…\(raw.suffix(4))"
    }

    /// A secret fully masked with a fixed number of mask glyphs, e.g. an SMS code as `••••••`.
    ///
    /// The length is fixed rather than the secret's own, so the mask does not reveal it.
    /// - Parameters:
    ///   - raw: The secret (unused beyond documenting what is masked).
    ///   - length: How many mask glyphs to show.
    /// - Returns: The mask.
    public static func mask(_ raw: some StringProtocol, length: Int = 6) -> String {
        String(repeating: maskGlyph, count: max(length, 1))
    }
}

// MARK: - API

extension DefaultStringInterpolation {
    /// Interpolates a raw secret that has no ``Redactable`` type yet, e.g.
    /// `"verify(\(redactedToken: rawToken))"`, so a label never holds it in clear.
    /// - Parameter redactedToken: The secret token.
    public mutating func appendInterpolation(redactedToken raw: some StringProtocol) {
        appendLiteral(Redaction.token(raw))
    }
}
