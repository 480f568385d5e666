import Foundation

/// Stable, sorted JSON text for `--json` output, so that the same run prints the same bytes.
enum JSONText {
    /// The text of a `JSONSerialization` object; `{}` when it is not one.
    static func encode(_ object: Any) -> String {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
