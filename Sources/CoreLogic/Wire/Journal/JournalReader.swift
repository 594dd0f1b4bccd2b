
/// What a journal directory holds, checked line by line: the snapshot (migrated to the
/// current state version) and the inputs recorded after it, already replayed.
struct History {
    var snapshotFound = false
    /// The snapshot's state version when a migration ran.
    var migratedFrom: Int?
    var snapshotSeq: UInt64 = 0
    /// How many records were replayed.
    var replayed = 0
    var lastSeq: UInt64 = 0
    /// The highest `next` effect id recorded anywhere.
    var maxNext: UInt64 = 1
    var durability: Durability = .everyInput
    var tornTail: (path: FileSystemPath, offset: Int, bytes: Int)?
}

/// Reads a journal directory (docs/persistence.md) and replays it as it reads: each
/// record line is checked against its checksum and decoded once, straight into the
/// feature's event (``JournalReplay``). A torn last record of the last segment (a crash
/// mid-write) is reported and left out; any other damage is `.corrupt` naming the file
/// and line, never a silently shorter history.
enum JournalReader {
    /// The directory's history, and the snapshot's state with every record after it
    /// applied (no effects).
    static func read(_ directory: FileSystemPath, feature descriptor: FeatureDescriptor) throws -> (history: History, replay: JournalReplay) {
        var history = History()
        let names = try FileSystem.list(directory)
        let replay = names.contains(JournalFormat.snapshotName)
            ? try readSnapshot(FileSystem.join(directory, JournalFormat.snapshotName), descriptor, &history)
            : try descriptor.beginReplay(state: nil)
        // Segments whose first seq the snapshot already covers are leftovers of a checkpoint
        // interrupted before it removed them.
        let segments = names.compactMap { name in JournalFormat.segmentFirst(name).map { (first: $0, name: name) } }
            .filter { $0.first > history.snapshotSeq }
            .sorted { $0.first < $1.first }
        // Every segment is created after a snapshot (journals start with a checkpoint), so
        // segments without one mean the snapshot was lost: its state is not the initial one.
        if !history.snapshotFound, let first = segments.first {
            throw CoreLogicError(.corrupt, "\(FileSystem.join(directory, first.name)): journal segments exist but \(JournalFormat.snapshotName) is missing")
        }
        history.lastSeq = history.snapshotSeq
        for (index, segment) in segments.enumerated() {
            let path = FileSystem.join(directory, segment.name)
            guard segment.first == history.lastSeq + 1 else {
                throw CoreLogicError(.corrupt, "\(path): journal continues at seq \(segment.first) but the history before it ends at seq \(history.lastSeq); records \(history.lastSeq + 1)...\(segment.first - 1) are missing")
            }
            try readSegment(path, first: segment.first, isLast: index == segments.count - 1, descriptor, replay, &history)
        }
        return (history, replay)
    }

    private static let checksumField = Array(#""crc32":""#.utf8)

    private static func checksumFields(in line: ArraySlice<UInt8>) -> Int {
        var count = 0
        var index = line.startIndex
        while index + checksumField.count <= line.endIndex {
            if line[index] == checksumField[0], line[index..<(index + checksumField.count)].elementsEqual(checksumField) {
                count += 1
                index += checksumField.count
            } else {
                index += 1
            }
        }
        return count
    }

    private static func corrupt(_ path: FileSystemPath, _ line: Int, _ reason: String) -> CoreLogicError {
        CoreLogicError(.corrupt, "\(path) line \(line): \(reason)")
    }

    /// Reads the snapshot into `history` and starts the replay from its state.
    private static func readSnapshot(_ path: FileSystemPath, _ descriptor: FeatureDescriptor, _ history: inout History) throws -> JournalReplay {
        let bytes = try FileSystem.readAll(path)
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")), end == bytes.count - 1 else {
            throw corrupt(path, 1, "a snapshot is exactly one line ending in a newline")
        }
        let value: JSONValue
        do {
            value = try JournalFormat.open(bytes[0..<end], limits: JournalFormat.snapshotLimits)
            guard try JournalFormat.string(value["corelogic"], "corelogic") == "snapshot" else {
                throw JournalFormat.Reason("not a snapshot (\"corelogic\" is not \"snapshot\")")
            }
            let format = try JournalFormat.integer(value["format"], "format")
            guard format == JournalFormat.version else {
                throw JournalFormat.Reason("snapshot format \(format); this build reads format \(JournalFormat.version)")
            }
            let feature = try JournalFormat.string(value["feature"], "feature")
            guard feature == descriptor.name else {
                throw JournalFormat.Reason("snapshot of feature '\(feature)', not '\(descriptor.name)'")
            }
            history.snapshotSeq = try JournalFormat.unsigned(value["seq"], "seq")
            history.maxNext = max(history.maxNext, try JournalFormat.unsigned(value["next"], "next"))
            let durability = try JournalFormat.string(value["durability"], "durability")
            guard let mode = Durability(name: durability) else { throw JournalFormat.Reason("unknown durability '\(durability)'") }
            history.durability = mode
        } catch let reason as JournalFormat.Reason {
            throw corrupt(path, 1, reason.text)
        }
        guard var state = value["state"] else { throw corrupt(path, 1, "snapshot has no \"state\"") }
        let version = (try? JournalFormat.integer(value["stateVersion"], "stateVersion")) ?? Int.min
        if version == Int.min { throw corrupt(path, 1, "field \"stateVersion\" is missing or not an integer") }
        if version > descriptor.stateVersion {
            throw CoreLogicError(.corrupt, "\(path): \(descriptor.name) snapshot has state version \(version), newer than version \(descriptor.stateVersion) that this build reads")
        }
        if version < descriptor.stateVersion {
            do {
                state = try descriptor.migrateState(state, from: version)
            } catch let error as CoreLogicError {
                throw CoreLogicError(.corrupt, "\(path): migrating state version \(version) to \(descriptor.stateVersion) failed: \(error.message)")
            } catch {
                throw CoreLogicError(.corrupt, "\(path): migrating state version \(version) to \(descriptor.stateVersion) failed: \(error)")
            }
            history.migratedFrom = version
        }
        history.snapshotFound = true
        do {
            return try descriptor.beginReplay(state: state)
        } catch let error as CoreLogicError {
            throw CoreLogicError(.corrupt, "\(path): the state does not decode: \(error.message)")
        }
    }

    private static func readSegment(_ path: FileSystemPath, first: UInt64, isLast: Bool, _ descriptor: FeatureDescriptor,
                                    _ replay: JournalReplay, _ history: inout History) throws {
        let bytes = try FileSystem.readAll(path)
        var lines: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { break }
            lines.append(start..<end)
            start = end + 1
        }
        // Bytes after the last newline: a record whose write never finished.
        let unterminated = start < bytes.count ? start : nil
        if let unterminated, !isLast || lines.isEmpty {
            throw corrupt(path, lines.count + 1, "unterminated line at offset \(unterminated) in a segment that is not the last one, or a segment without a complete header")
        }
        guard let headerRange = lines.first else { throw corrupt(path, 1, "empty segment: no header") }
        do {
            let header = try JournalFormat.open(bytes[headerRange], limits: JournalFormat.snapshotLimits)
            guard try JournalFormat.string(header["corelogic"], "corelogic") == "journal" else {
                throw JournalFormat.Reason("not a journal segment header (\"corelogic\" is not \"journal\")")
            }
            let format = try JournalFormat.integer(header["format"], "format")
            guard format == JournalFormat.version else {
                throw JournalFormat.Reason("journal format \(format); this build reads format \(JournalFormat.version)")
            }
            let feature = try JournalFormat.string(header["feature"], "feature")
            guard feature == descriptor.name else { throw JournalFormat.Reason("journal of feature '\(feature)', not '\(descriptor.name)'") }
            let declared = try JournalFormat.unsigned(header["first"], "first")
            guard declared == first else { throw JournalFormat.Reason("header says first seq \(declared), the file name says \(first)") }
            history.maxNext = max(history.maxNext, try JournalFormat.unsigned(header["next"], "next"))
            let durability = try JournalFormat.string(header["durability"], "durability")
            guard let mode = Durability(name: durability) else { throw JournalFormat.Reason("unknown durability '\(durability)'") }
            history.durability = mode
        } catch let reason as JournalFormat.Reason {
            throw corrupt(path, 1, "header: " + reason.text)
        }
        for lineIndex in 1..<lines.count {
            let range = lines[lineIndex]
            let isFinal = isLast && lineIndex == lines.count - 1 && unterminated == nil
            do {
                try JournalFormat.checkChecksum(bytes[range])
                let (seq, next) = try bytes[range].withUnsafeBytes { try replay.apply(record: $0) }
                guard seq == history.lastSeq + 1 else {
                    throw JournalFormat.Reason("record seq \(seq) where seq \(history.lastSeq + 1) was expected")
                }
                history.replayed += 1
                history.maxNext = max(history.maxNext, next)
                history.lastSeq = seq
            } catch let reason as JournalFormat.Reason {
                // The last line of the last segment may be a record torn by a crash (or by an
                // OS crash that kept the file's size but not all its bytes): reported, not
                // replayed. A line holding two checksum fields is two records run together
                // (a damaged newline): corruption, not a tear. A record that is whole (its
                // checksum and syntax hold) but does not decode is corruption wherever it is.
                if isFinal, reason.torn, checksumFields(in: bytes[range]) <= 1 {
                    history.tornTail = (path, range.lowerBound, bytes.count - range.lowerBound)
                    return
                }
                throw corrupt(path, lineIndex + 1, "record \(first + UInt64(lineIndex - 1)): " + reason.text)
            }
        }
        if let unterminated {
            history.tornTail = (path, unterminated, bytes.count - unterminated)
        }
    }
}
