import Foundation
import Operations

extension JournalReader {
    /// Checks, line by line, that each line stands where it says (``LinePosition``), and at the
    /// end that the journal still reaches the line its sync mark names: the rules behind
    /// ``JournalLoss``.
    ///
    /// Places are numbers in the file, not among intact lines: a line damaged in place keeps its
    /// number, so the lines after it still check; only the line after it cannot check its
    /// predecessor. A line that says nothing of its place (written before lines did) is
    /// accepted as it stands.
    struct PlaceCheck {
        private let lines: [ArraySlice<UInt8>]
        /// The checksum of the line before the one checked; `nil` when it has none or is damaged.
        private var previousSum: UInt32?
        /// Whether the line before the one checked said where it stands and stood there: only
        /// then do the places of lines missing after it have numbers.
        private var previousPlaced = false

        init(lines: [ArraySlice<UInt8>]) {
            self.lines = lines
        }

        /// Checks line `number` (from 1), which is not damaged.
        ///
        /// - Returns: What was lost, when the line is not where it says.
        mutating func check(_ line: ArraySlice<UInt8>, number: Int) -> JournalLoss? {
            let (expected, placedBefore) = (previousSum, previousPlaced)
            (previousSum, previousPlaced) = (nil, false)
            guard let (body, recorded) = LineChecksum.split(line) else { return nil }
            previousSum = recorded
            guard let (position, _) = LinePosition.read(body: body) else { return nil }
            if position.sequence > number {
                // The line that belongs here further on: the lines are out of order, not missing.
                if lines[number...].contains(where: { Self.sequence(of: $0) == number }) {
                    return .outOfPlace(line: number, claims: position.sequence)
                }
                guard placedBefore else { return .missingBefore(line: number, claims: position.sequence) }
                return .missingLines(first: number, last: position.sequence - 1, after: describe(number - 1))
            }
            if position.sequence < number { return .outOfPlace(line: number, claims: position.sequence) }
            if let previous = position.previous, let expected, previous != expected {
                return .brokenChain(line: number)
            }
            previousPlaced = true
            return nil
        }

        /// Notes that the line just passed is damaged: the next one cannot check it.
        mutating func skipDamaged() {
            (previousSum, previousPlaced) = (nil, false)
        }

        /// Checks that the journal reaches the line `mark` names, and that it is the line synced.
        ///
        /// A torn line after the last complete one counts as lost when the mark names it or a
        /// later line; past the mark it is a crash's tail.
        func checkTail(against mark: SyncMark) -> JournalLoss? {
            if mark.line > lines.count {
                return .lostTail(first: lines.count + 1, last: mark.line, after: describe(lines.count))
            }
            // A damaged line there is damage, named as such; an intact one must be the same line.
            if let sum = LineChecksum.intactSum(lines[mark.line - 1]), sum != mark.sum {
                return .replacedLine(line: mark.line)
            }
            return nil
        }

        /// The place a line says it stands at, if it says.
        private static func sequence(of line: ArraySlice<UInt8>) -> Int? {
            LineChecksum.split(line).flatMap { LinePosition.read(body: $0.body)?.position.sequence }
        }

        /// Line `number` in words, for the sentence that says where lines were lost.
        private func describe(_ number: Int) -> String {
            guard number > 1 else { return number == 1 ? "the header" : "the start" }
            let line = lines[number - 1]
            guard LineChecksum.verify(line) != .damaged,
                let event = try? JSONDecoder().decode(JournalFormat.EventLine.self, from: Data(line))
            else { return "a line that does not read" }
            return event.address.map { "\(event.event) of step \($0)" } ?? event.event
        }
    }
}
