import Foundation

extension JournalReader.Scanner {
    /// The comparable form (``ComparableJSON``) of the value at the cursor, already checked by
    /// ``skipValue(depth:)``, written as ``ComparableJSON/Decoded`` writes it.
    ///
    /// - Returns: `false` when the value holds what only `JSONDecoder` reads the same way —
    ///   a number other than an integer of 64 bits, or an object with an escaped or repeated
    ///   key — and the caller reads the whole value with ``ComparableJSON/Decoded`` instead.
    mutating func writeComparable(into out: inout [UInt8], depth: Int = 0) throws(Refused) -> Bool {
        switch try peek() {
        case UInt8(ascii: "\""):
            let token = try string()
            if token.escaped {
                ComparableJSON.writeString(try text(token), into: &out)
            } else {
                // Unescaped, valid UTF-8 and without control characters: its bytes are the
                // comparable form's, which escapes nothing else.
                out.append(UInt8(ascii: "\""))
                out += bytes[token.content]
                out.append(UInt8(ascii: "\""))
            }
            return true
        case UInt8(ascii: "["):
            guard depth < Self.maximumDepth else { throw Refused() }
            position += 1
            out.append(UInt8(ascii: "["))
            if try !take(UInt8(ascii: "]")) {
                var first = true
                repeat {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    guard try writeComparable(into: &out, depth: depth + 1) else { return false }
                } while try take(UInt8(ascii: ","))
                try expect(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
            return true
        case UInt8(ascii: "{"):
            guard depth < Self.maximumDepth else { throw Refused() }
            return try writeComparableObject(into: &out, depth: depth)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            let literal = try skipValue(depth: depth)
            out += bytes[literal.range]
            return true
        default:
            let number = try number()
            guard number.integral, let value = integer(number.range) else { return false }
            out += String(value).utf8
            return true
        }
    }

    /// An object's members in the order of their keys' UTF-8 bytes.
    private mutating func writeComparableObject(into out: inout [UInt8], depth: Int) throws(Refused) -> Bool {
        position += 1
        var members: [(key: Range<Int>, value: Int)] = []
        if try !take(UInt8(ascii: "}")) {
            repeat {
                let key = try string()
                if key.escaped { return false }
                try expect(UInt8(ascii: ":"))
                skipSpace()
                members.append((key.content, position))
                _ = try skipValue(depth: depth + 1)
            } while try take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
        }
        let end = position
        let bytes = self.bytes
        members.sort { bytes[$0.key].lexicographicallyPrecedes(bytes[$1.key]) }
        out.append(UInt8(ascii: "{"))
        for (offset, member) in members.enumerated() {
            if offset > 0 {
                if bytes[members[offset - 1].key].elementsEqual(bytes[member.key]) { return false }
                out.append(UInt8(ascii: ","))
            }
            out.append(UInt8(ascii: "\""))
            out += bytes[member.key]
            out += [UInt8(ascii: "\""), UInt8(ascii: ":")]
            position = member.value
            guard try writeComparable(into: &out, depth: depth + 1) else { return false }
        }
        out.append(UInt8(ascii: "}"))
        position = end
        return true
    }
}
