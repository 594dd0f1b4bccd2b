/// The feature's side of a restore (docs/persistence.md): the state so far, to which each
/// journal record's input is applied as it is read. Made by
/// ``FeatureDescriptor/beginReplay(state:)``, where the feature's types are known, so the
/// journal reader stays untyped.
protocol JournalReplay: AnyObject {
    /// Decodes one record line (its checksum already checked) once, straight into the
    /// feature's event, and runs the event through the reducer (no effects); a `complete`
    /// only counts. Returns the record's `seq` and `next`.
    /// - Throws: ``JournalFormat/Reason`` when the record does not decode.
    func apply(record line: UnsafeRawBufferPointer) throws -> (seq: UInt64, next: UInt64)

    /// The restored system: feedbacks evaluated once on the replayed state, effect ids after
    /// every id the previous life handed out (``System/init(restoring:previousNextEffectID:)``),
    /// and the first id it hands out.
    func finish(previousNextEffectID: UInt64) -> (system: AnySystem, firstEffectID: UInt64)
}

final class TypedReplay<F: Feature>: JournalReplay {
    private var state: F.State
    private let payloadless: PayloadlessCases<F.Event>

    init(state: F.State?, payloadless: PayloadlessCases<F.Event>) {
        self.state = state ?? F.initialState
        self.payloadless = payloadless
    }

    func apply(record line: UnsafeRawBufferPointer) throws -> (seq: UInt64, next: UInt64) {
        let record: JournalRecord<F.Event>
        do {
            record = try JSONCoding.decode(JournalRecord<F.Event>.self, from: line, limits: JournalFormat.recordLimits)
        } catch let error as JSONError {
            // Not JSON despite a good checksum: treated as the checksum failing (a torn last
            // record). JSON of the wrong shape, the event included, is corruption.
            if error.kind == .syntax { throw JournalFormat.Reason("not valid JSON: \(error)", torn: true) }
            throw JournalFormat.Reason("does not decode: \(error.message)")
        }
        switch record.input {
        case .send(let event), .deliver(_, let event):
            F.reduce(&state, event)
        case .complete:
            break
        }
        return (record.seq, record.next)
    }

    func finish(previousNextEffectID: UInt64) -> (system: AnySystem, firstEffectID: UInt64) {
        let system = System<F>(restoring: state, previousNextEffectID: previousNextEffectID)
        return (AnySystem(WireSystem<F>(system, payloadless: payloadless)), system.firstEffectID)
    }
}

/// One journal record, `{"seq":12,"next":17,"send":<event>,"crc32":"..."}` (or
/// `"deliver":{"effect":4,"event":<event>}`, `"complete":{"effect":4}`), decoded in one pass
/// with the event in its feature's type. The checksum is checked on the raw line before.
struct JournalRecord<Event: Decodable>: Decodable {
    enum Input {
        case send(Event)
        case deliver(effect: UInt64, event: Event)
        case complete(effect: UInt64)
    }

    var seq: UInt64
    var next: UInt64
    var input: Input

    private enum Key: String, CodingKey {
        case seq, next, send, deliver, complete, effect, event
    }

    init(from decoder: Decoder) throws {
        let record = try decoder.container(keyedBy: Key.self)
        seq = try record.decode(UInt64.self, forKey: .seq)
        next = try record.decode(UInt64.self, forKey: .next)
        if record.contains(.send) {
            input = .send(try record.decode(Event.self, forKey: .send))
        } else if record.contains(.deliver) {
            let deliver = try record.nestedContainer(keyedBy: Key.self, forKey: .deliver)
            input = .deliver(effect: try deliver.decode(UInt64.self, forKey: .effect),
                             event: try deliver.decode(Event.self, forKey: .event))
        } else if record.contains(.complete) {
            let complete = try record.nestedContainer(keyedBy: Key.self, forKey: .complete)
            input = .complete(effect: try complete.decode(UInt64.self, forKey: .effect))
        } else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: record.codingPath, debugDescription: "the record holds none of \"send\", \"deliver\", \"complete\""))
        }
    }
}
