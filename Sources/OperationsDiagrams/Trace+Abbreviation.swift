import Operations

extension Trace {
    /// The trace with long participant names shortened (identifiers unchanged), and the legend
    /// lines: so that a diagram whose head boxes do not fit the width can still be drawn
    /// (`TermsOfUseOp` becomes `TOUO`, with a legend under the drawing).
    func abbreviated() -> (trace: Trace, legend: [String]) {
        // Names at most this long are kept: they cost little more than their abbreviation.
        let keptLength = 6
        var used = Set(participants.map(\.name).filter { $0.count <= keptLength })
        var short: [Participant.ID: String] = [:]
        var legend: [String] = []
        for participant in participants
        where participant.kind != .caller && participant.name.count > keptLength
            && short[participant.id] == nil
        {
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
        let trace = Trace(
            events: events.map { event in
                guard case .declare(var participant) = event.kind, let name = short[participant.id] else {
                    return event
                }
                participant.name = name
                return .declare(participant)
            })
        return (trace, legend)
    }

    /// The capitals and digits of a camel-case name, or its first three characters when it has
    /// fewer than two capitals (`AuthScenario` → `AS`, `LocalStorage` → `LS`, `api` → `api`).
    static func initials(of name: String) -> String {
        let capitals = name.filter { $0.isUppercase || $0.isNumber }
        return capitals.count >= 2 ? String(capitals) : String(name.prefix(3))
    }
}
