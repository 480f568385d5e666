/// What a successful run produced, as the runner prints it: a sentence on standard output, the
/// lines under it, and the keys it adds to the `--json` object. A program turns its scenario's
/// value into one, so the runner prints any scenario's result without knowing its type.
public struct RunOutcome: Sendable {
    /// The first line on standard output, like `Signed in.`.
    public var sentence: String
    /// More lines on standard output, without `--json`.
    public var lines: [String]
    /// Keys added to the `--json` object (a key whose value is `nil` is left out).
    public var jsonFields: [String: String?]

    /// Creates an outcome from its parts, each as its property says; no more lines or keys by
    /// default.
    public init(sentence: String, lines: [String] = [], jsonFields: [String: String?] = [:]) {
        self.sentence = sentence
        self.lines = lines
        self.jsonFields = jsonFields
    }
}
