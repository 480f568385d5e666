package import Foundation
import Testing

/// Ways a journal can be found damaged on disk, each applied to the bytes of a real one: what a
/// killed process, a bad disk or a hand edit leaves. `check` and `rerun` must judge every one
/// alike (issue 26).
package enum JournalDamage: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case intact
    case byteChangedInAMiddleLine
    case byteChangedInTheLastLine
    case twoBlankLinesInTheMiddle
    case tornLastLine
    case truncatedHeader
    case duplicatedLine
    case wrongChecksum
    case garbageInTheMiddle
    case unknownEvent
    case missingRunStarted
    case missingMiddleLine
    case cutAtALineBeforeTheLastSync
    case headerOnly
    case emptyFile
    case laterFormatVersion

    package var testDescription: String { rawValue }

    /// The damaged journal made from `bytes`, a whole journal ending with a newline that has at
    /// least five event lines (line 4 is a step's success, so changing it hides one).
    package func apply(to bytes: Data) -> Data {
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
        if lines.last == "" { lines.removeLast() }
        let last = lines.count - 1
        switch self {
        case .intact: break
        case .byteChangedInAMiddleLine: lines[3] = Self.changingADigit(lines[3])
        case .byteChangedInTheLastLine: lines[last] = Self.changingADigit(lines[last])
        case .twoBlankLinesInTheMiddle: lines.insert(contentsOf: ["", ""], at: 3)
        case .tornLastLine:
            let kept = lines.dropLast().joined(separator: "\n") + "\n"
            return Data((kept + lines[last].prefix(lines[last].count / 2)).utf8)
        case .truncatedHeader: return Data(lines[0].prefix(lines[0].count / 2).utf8)
        case .duplicatedLine: lines.insert(lines[3], at: 4)
        case .wrongChecksum:
            lines[3] = lines[3].replacingOccurrences(
                of: #""sum":"[0-9a-f]+""#, with: #""sum":"00000000""#, options: .regularExpression)
        case .garbageInTheMiddle: lines[2] = "\u{00}\u{FF}garbage"
        case .unknownEvent: lines.insert(#"{"event":"somethingNew","at":1735732800000}"#, at: 2)
        case .missingRunStarted: lines.remove(at: 1)
        case .missingMiddleLine: lines.remove(at: 3)
        case .cutAtALineBeforeTheLastSync: lines = Array(lines.prefix(3))
        case .headerOnly: lines = [lines[0]]
        case .emptyFile: return Data()
        case .laterFormatVersion:
            lines[0] = lines[0].replacingOccurrences(of: #""version":1"#, with: #""version":2"#)
        }
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// The line with the first digit of its time changed: one byte, and still valid JSON.
    private static func changingADigit(_ line: String) -> String {
        guard let at = line.range(of: #""at":"#) else { return line + " " }
        var characters = Array(line)
        let index = line.distance(from: line.startIndex, to: at.upperBound) + 1
        characters[index] = characters[index] == "9" ? "8" : "9"
        return String(characters)
    }
}
