import Foundation
import Operations

extension JournalFormat.EventLine {
    /// The fields an event line may hold, in one table: a line with any other key is left to
    /// `JSONDecoder`, so a field a later version adds is read as it always was.
    fileprivate enum Field: Int, CaseIterable {
        case event, at, address, attempt, durationMs, error, willRetry, status, session, purity
        case idempotencyKey, shape, fingerprint, skippedLines, began, polls, nextPollAt, waitSeconds, handled
        case input, inputSealed, inputWithConfidentialFields, inputNotRecorded
        case output, outputSealed, outputWithConfidentialFields, outputNotRecorded
        case sequence, previous, checksum

        var key: String {
            switch self {
            case .sequence: JournalFormat.Position.sequence
            case .previous: JournalFormat.Position.previous
            case .checksum: LineChecksum.key
            default: String(describing: self)
            }
        }

        static let keys: [[UInt8]] = allCases.map { Array($0.key.utf8) }

        /// The field named by `key`, if the table has it.
        static func named(_ key: ArraySlice<UInt8>) -> Field? {
            for (index, name) in keys.enumerated() where name.count == key.count && name.elementsEqual(key) {
                return Field(rawValue: index)
            }
            return nil
        }
    }

    /// Reads a line of the journal's own form (``JournalLine``) with ``JournalReader/Scanner``
    /// rather than `JSONDecoder`: the envelope's fields straight from their bytes, the step values
    /// in comparable form as they are scanned. The rare fields of a nested shape (an error, a
    /// scenario shape, skipped lines) are still decoded by `JSONDecoder`, from their own bytes.
    ///
    /// - Returns: `nil` when the line holds anything the scanner does not take, or a field not of
    ///   its form: the caller then decodes it with `JSONDecoder`, which reads it as before and
    ///   says what is wrong, so the two readers never disagree on what a line says.
    init?(scanning line: ArraySlice<UInt8>, decoder: JSONDecoder) {
        do throws(JournalReader.Scanner.Refused) {
            try self.init(scanner: JournalReader.Scanner(line), decoder: decoder)
        } catch {
            return nil
        }
    }

    private init(scanner start: JournalReader.Scanner, decoder: JSONDecoder) throws(JournalReader.Scanner.Refused) {
        var scanner = start
        var found = [Range<Int>?](repeating: nil, count: Field.allCases.count)
        try scanner.expect(UInt8(ascii: "{"))
        if try !scanner.take(UInt8(ascii: "}")) {
            repeat {
                let key = try scanner.string()
                guard !key.escaped, let field = Field.named(scanner.bytes[key.content]),
                    found[field.rawValue] == nil
                else { throw .init() }
                try scanner.expect(UInt8(ascii: ":"))
                found[field.rawValue] = try scanner.skipValue().range
            } while try scanner.take(UInt8(ascii: ","))
            try scanner.expect(UInt8(ascii: "}"))
        }
        scanner.skipSpace()
        guard scanner.isAtEnd else { throw .init() }
        // A value with confidential fields is a nested object of two parts: rare, decoded whole.
        guard found[Field.inputWithConfidentialFields.rawValue] == nil,
            found[Field.outputWithConfidentialFields.rawValue] == nil
        else { throw .init() }

        let fields = ScannedFields(scanner: scanner, found: found, decoder: decoder)
        guard let eventRange = found[Field.event.rawValue], let event = try fields.string(eventRange),
            let atRange = found[Field.at.rawValue], let at = try fields.integer(atRange)
        else { throw .init() }
        let line = try JournalFormat.EventFields(
            event: event, at: at,
            address: found[Field.address.rawValue].flatMap { range throws(JournalReader.Scanner.Refused) in
                try fields.address(range)
            },
            attempt: fields.int(.attempt), durationMs: fields.double(.durationMs),
            error: fields.decoded(RecordedError.self, .error), willRetry: fields.bool(.willRetry),
            status: fields.string(.status), session: fields.int(.session),
            purity: fields.string(.purity).map { text throws(JournalReader.Scanner.Refused) in
                guard let purity = Purity(rawValue: text) else { throw .init() }
                return purity
            },
            idempotencyKey: fields.string(.idempotencyKey).map { text throws(JournalReader.Scanner.Refused) in
                guard let key = IdempotencyKey(text) else { throw .init() }
                return key
            },
            shape: fields.decoded(ScenarioShape.self, .shape), fingerprint: fields.string(.fingerprint),
            skippedLines: fields.decoded([Int].self, .skippedLines), began: fields.int64(.began),
            polls: fields.int(.polls), nextPollAt: fields.int64(.nextPollAt), waitSeconds: fields.double(.waitSeconds),
            handled: fields.decoded(HandledEvent.self, .handled))
        // A value not of its form refuses the line too: why it is not is `JSONDecoder`'s to say.
        let values = try JournalFormat.RecordedValues(
            input: fields.value(clear: .input, sealed: .inputSealed, notRecorded: .inputNotRecorded),
            output: fields.value(clear: .output, sealed: .outputSealed, notRecorded: .outputNotRecorded))
        self.init(fields: line, values: values)
    }

    /// The fields found in a scanned line, read by their form; each throws when a field is not
    /// of its form (the line is then decoded by `JSONDecoder`), and is `nil` when absent or null.
    fileprivate struct ScannedFields {
        let scanner: JournalReader.Scanner
        let found: [Range<Int>?]
        let decoder: JSONDecoder

        func range(_ field: Field) -> Range<Int>? {
            guard let range = found[field.rawValue], scanner.bytes[range.lowerBound] != UInt8(ascii: "n") else {
                return nil
            }
            return range
        }

        func token(_ range: Range<Int>) throws(JournalReader.Scanner.Refused) -> JournalReader.Scanner.StringToken {
            var cursor = scanner
            cursor.position = range.lowerBound
            return try cursor.string()
        }

        func string(_ range: Range<Int>) throws(JournalReader.Scanner.Refused) -> String? {
            guard scanner.bytes[range.lowerBound] == UInt8(ascii: "\"") else { throw .init() }
            return try scanner.text(token(range))
        }

        func string(_ field: Field) throws(JournalReader.Scanner.Refused) -> String? {
            try range(field).flatMap { range throws(JournalReader.Scanner.Refused) in try string(range) }
        }

        func integer(_ range: Range<Int>) throws(JournalReader.Scanner.Refused) -> Int64? {
            var cursor = scanner
            cursor.position = range.lowerBound
            guard scanner.bytes[range.lowerBound] != UInt8(ascii: "\""), scanner.bytes[range.lowerBound] > 0x2C,
                scanner.bytes[range.lowerBound] < 0x3A
            else { throw .init() }
            let number = try cursor.number()
            guard number.integral, let value = scanner.integer(number.range) else { throw .init() }
            return value
        }

        func int64(_ field: Field) throws(JournalReader.Scanner.Refused) -> Int64? {
            try range(field).flatMap { range throws(JournalReader.Scanner.Refused) in try integer(range) }
        }

        func int(_ field: Field) throws(JournalReader.Scanner.Refused) -> Int? {
            try int64(field).map { value throws(JournalReader.Scanner.Refused) in
                guard let int = Int(exactly: value) else { throw .init() }
                return int
            }
        }

        func double(_ field: Field) throws(JournalReader.Scanner.Refused) -> Double? {
            guard let range = range(field) else { return nil }
            let first = scanner.bytes[range.lowerBound]
            guard first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
                let value = Double(String(decoding: scanner.bytes[range], as: UTF8.self)), value.isFinite
            else { throw .init() }
            return value
        }

        func bool(_ field: Field) throws(JournalReader.Scanner.Refused) -> Bool? {
            guard let range = range(field) else { return nil }
            switch scanner.bytes[range.lowerBound] {
            case UInt8(ascii: "t"): return true
            case UInt8(ascii: "f"): return false
            default: throw .init()
            }
        }

        /// A field of a nested shape, decoded from its own bytes.
        func decoded<T: Decodable>(_ type: T.Type, _ field: Field) throws(JournalReader.Scanner.Refused) -> T? {
            guard let range = range(field) else { return nil }
            guard let value = try? decoder.decode(type, from: Data(scanner.bytes[range])) else { throw .init() }
            return value
        }

        /// `[{"index":0,"name":"AuthScenario"},…]`, each component of exactly these two fields.
        func address(_ range: Range<Int>) throws(JournalReader.Scanner.Refused) -> [StepAddress.Component]? {
            guard scanner.bytes[range.lowerBound] != UInt8(ascii: "n") else { return nil }
            var cursor = scanner
            cursor.position = range.lowerBound
            var path: [StepAddress.Component] = []
            try cursor.expect(UInt8(ascii: "["))
            if try !cursor.take(UInt8(ascii: "]")) {
                repeat {
                    try cursor.expect(UInt8(ascii: "{"))
                    var index: Int?
                    var name: String?
                    repeat {
                        let key = try cursor.string()
                        try cursor.expect(UInt8(ascii: ":"))
                        let value = try cursor.skipValue()
                        let keyBytes = cursor.bytes[key.content]
                        if index == nil, keyBytes.elementsEqual(Self.indexKey) {
                            index = try integer(value.range).flatMap { Int(exactly: $0) }
                        } else if name == nil, keyBytes.elementsEqual(Self.nameKey) {
                            name = try string(value.range)
                        } else {
                            throw .init()
                        }
                    } while try cursor.take(UInt8(ascii: ","))
                    try cursor.expect(UInt8(ascii: "}"))
                    guard let index, let name else { throw .init() }
                    path.append(.init(index: index, name: name))
                } while try cursor.take(UInt8(ascii: ","))
                try cursor.expect(UInt8(ascii: "]"))
            }
            return path
        }

        private static let indexKey = Array("index".utf8)
        private static let nameKey = Array("name".utf8)

        /// A recorded value as ``RecordedValue/init(_:in:)`` reads it: the clear form first.
        func value(clear: Field, sealed: Field, notRecorded: Field) throws(JournalReader.Scanner.Refused)
            -> RecordedValue?
        {
            if let range = found[clear.rawValue] {
                var cursor = scanner
                cursor.position = range.lowerBound
                var bytes: [UInt8] = []
                bytes.reserveCapacity(range.count)
                if try cursor.writeComparable(into: &bytes) { return .json(Data(bytes)) }
                guard let json = ComparableJSON.Decoded.data(Data(scanner.bytes[range])) else { throw .init() }
                return .json(json)
            }
            for (field, make) in [(sealed, RecordedValue.sealed), (notRecorded, RecordedValue.notRecorded)] {
                guard let range = found[field.rawValue] else { continue }
                guard scanner.bytes[range.lowerBound] == UInt8(ascii: "\""), let text = try string(range) else {
                    throw .init()
                }
                return make(text)
            }
            return nil
        }
    }
}

extension JournalFormat.RecordedValues {
    /// The values of a scanned line as ``init(from:)`` reads them.
    fileprivate init(input: RecordedValue?, output: RecordedValue?) {
        (self.input, self.output, self.problem) = (input, output, nil)
    }
}
