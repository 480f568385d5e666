/// The outputs of a parallel step that waits for all its branches, standing in its
/// `stepSucceeded` event for its tuple, which `Encodable` cannot describe: a JSON array in branch
/// order, each element as that branch's own output is recorded (`null` for nothing).
package struct ParallelOutputs: Sendable, Encodable {
    /// The branches' outputs, in branch order.
    package let values: [any Sendable]
    /// The step's output type, `(Price, Order)`.
    package let type: String
    /// Asked only to say why the outputs are not recorded.
    private let branchName: @Sendable (Int) -> String

    init(_ values: [any Sendable], type: String, branchName: @escaping @Sendable (Int) -> String) {
        self.values = values
        self.type = type
        self.branchName = branchName
    }

    /// Why the outputs cannot be recorded as one value — the first branch whose output is not
    /// `Encodable` — in words that say where they are recorded instead; `nil` when they can be.
    package var notRecordedReason: String? {
        guard let position = values.firstIndex(where: { !($0 is any Encodable) && !($0 is Void) }) else { return nil }
        let output = Swift.type(of: values[position])
        return "recorded at each branch, not as a whole: \(branchName(position))'s output \(output) is not Encodable"
    }

    /// Encodes the outputs as an array in branch order.
    ///
    /// - Throws: `EncodingError.invalidValue` when an output is not `Encodable`
    ///   (``notRecordedReason`` says so first), or what an output's own conformance throws.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for value in values {
            if value is Void {
                try container.encodeNil()
            } else if let encodable = value as? any Encodable {
                try container.encode(encodable)
            } else {
                let context = EncodingError.Context(
                    codingPath: container.codingPath, debugDescription: "\(Swift.type(of: value)) is not Encodable")
                throw EncodingError.invalidValue(value, context)
            }
        }
    }
}
