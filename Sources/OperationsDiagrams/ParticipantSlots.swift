import Operations

/// Values kept per participant of one trace, found by the participant's id.
typealias ParticipantSlots<Value> = [Participant.ID: Value]
