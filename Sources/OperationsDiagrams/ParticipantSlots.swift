import Operations

/// Values kept per participant of one trace, found by the participant's id.
///
/// A diagram has a handful of participants and looks one up several times per message. Hashing
/// a `String` costs several hundred instructions, and so does comparing two different ones; a
/// fingerprint of an id (its length and its first and last bytes) is a few. So ids are scanned
/// by fingerprint, compared in full only when the fingerprint matches, while there are few, and
/// hashed once there are many.
struct ParticipantSlots<Value> {
    private var ids: [Participant.ID] = []
    private var fingerprints: [UInt64] = []
    private var values: [Value] = []
    /// The position of each id, built once the scan would be slower than a hash.
    private var positions: [Participant.ID: Int]?

    /// Beyond this many participants, ids are found by hashing.
    private static var scanLimit: Int { 16 }

    subscript(id: Participant.ID) -> Value? {
        get { position(of: id).map { values[$0] } }
        set {
            if let position = position(of: id) {
                if let newValue {
                    values[position] = newValue
                } else {
                    remove(at: position)
                }
            } else if let newValue {
                ids.append(id)
                fingerprints.append(Self.fingerprint(of: id))
                values.append(newValue)
                if positions != nil || ids.count > Self.scanLimit { rebuildPositions() }
            }
        }
    }

    private func position(of id: Participant.ID) -> Int? {
        if let positions { return positions[id] }
        let fingerprint = Self.fingerprint(of: id)
        for index in fingerprints.indices where fingerprints[index] == fingerprint && ids[index] == id {
            return index
        }
        return nil
    }

    private static func fingerprint(of id: Participant.ID) -> UInt64 {
        let utf8 = id.rawValue.utf8
        return UInt64(truncatingIfNeeded: utf8.count) << 16 | UInt64(utf8.first ?? 0) << 8 | UInt64(utf8.last ?? 0)
    }

    private mutating func remove(at position: Int) {
        ids.remove(at: position)
        fingerprints.remove(at: position)
        values.remove(at: position)
        if positions != nil { rebuildPositions() }
    }

    private mutating func rebuildPositions() {
        positions = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, $0) })
    }
}
