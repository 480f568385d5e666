import Operations

/// Short names for long participant names, so that a diagram whose head boxes do not fit the
/// width can still be drawn: `TermsOfUseOp` becomes `TOUO`, with a legend under the drawing.
struct ParticipantAbbreviation {
    /// Names at most this long are kept: they cost little more than their abbreviation.
    static let keptLength = 6

    /// The trace with long names shortened (identifiers unchanged), and the legend lines.
    let trace: Trace
    let legend: [String]

    init(_ original: Trace) {
        var used = Set(original.participants.map(\.name).filter { $0.count <= Self.keptLength })
        var short: [Participant.ID: String] = [:]
        var legend: [String] = []
        for participant in original.participants
        where participant.kind != .caller && participant.name.count > Self.keptLength && short[participant.id] == nil {
            let base = Self.initials(of: participant.name)
            var candidate = base
            var number = 2
            while used.contains(candidate) {
                candidate = "\(base)\(number)"
                number += 1
            }
            used.insert(candidate)
            short[participant.id] = candidate
            legend.append("\(candidate) = \(participant.name)")
        }
        self.legend = legend
        trace = Trace(
            events: original.events.map { event in
                guard case .declare(var participant) = event.kind, let name = short[participant.id] else {
                    return event
                }
                participant.name = name
                return .declare(participant)
            })
    }

    /// The capitals and digits of a camel-case name, or its first three characters when it has
    /// fewer than two capitals (`AuthScenario` → `AS`, `LocalStorage` → `LS`, `api` → `api`).
    static func initials(of name: String) -> String {
        let capitals = name.filter { $0.isUppercase || $0.isNumber }
        return capitals.count >= 2 ? String(capitals) : String(name.prefix(3))
    }
}
