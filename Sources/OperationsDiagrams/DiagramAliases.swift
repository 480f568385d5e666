import Operations

/// Identifiers for participants in diagram languages (PlantUML, Mermaid), which accept only
/// letters, digits and underscores in a name and reserve some words.
struct DiagramAliases {
    private(set) var columns: [String] = []
    private(set) var edges: [Participant.ID: String] = [:]

    private static let reserved: Set<String> = [
        "activate", "actor", "alt", "and", "as", "autonumber", "box", "break", "control", "create",
        "critical", "database", "deactivate", "destroy", "else", "end", "entity", "group", "loop",
        "note", "opt", "over", "par", "participant", "rect", "ref", "return", "title",
    ]

    init(model: DiagramModel) {
        var used = Set<String>()
        func alias(for participant: Participant) -> String {
            var base = String(
                participant.id.rawValue.unicodeScalars.map { scalar -> Character in
                    let isWord =
                        (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                        || scalar == "_"
                    return isWord ? Character(scalar) : "_"
                })
            if base.isEmpty || base.first?.isNumber == true || Self.reserved.contains(base.lowercased()) {
                base = "p_" + base
            }
            var candidate = base
            var suffix = 2
            while !used.insert(candidate).inserted {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            return candidate
        }
        for participant in model.edgeParticipants { edges[participant.id] = alias(for: participant) }
        columns = model.columns.map { alias(for: $0.participant) }
    }
}
