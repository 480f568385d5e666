/// A view model's hard link, the key service it was handed at creation: part of what the model
/// does, not of what it shows, so models that show the same are equal whatever they were handed.
struct HardLink<Service: Sendable>: Sendable, Hashable {
    let service: Service

    static func == (lhs: Self, rhs: Self) -> Bool { true }

    func hash(into hasher: inout Hasher) {}
}
