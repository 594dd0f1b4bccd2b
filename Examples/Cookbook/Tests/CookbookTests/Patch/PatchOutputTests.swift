import Foundation
import XCTest
@testable import CoreLogic
@testable import Cookbook
import CoreLogicTesting

/// Patch output (include/corelogic.h, "Output"): the patches reproduce the full states,
/// revisions chain, the differ's cost follows the change, and watched queries report
/// only changes.
final class PatchOutputTests: XCTestCase {
    // MARK: - Helpers

    /// A system in patch mode with a mirror of its state kept from patches.
    final class Mirror {
        let system: AnySystem
        var state: JSONValue
        var revision: UInt64

        init(_ system: AnySystem) throws {
            self.system = system
            var snapshot: [UInt8] = []
            try system.setOutput(.patch) { snapshot = Array($0) }
            let parsed = try JSONParser.parse(snapshot)
            state = parsed["state"] ?? .null
            revision = UInt64(Self.int(parsed["revision"]))
        }

        static func int(_ value: JSONValue?) -> Int64 {
            if case .int(let n)? = value { return n }
            return -1
        }

        /// Applies a batch's patch, checking that it continues from the mirror's revision, or
        /// takes the small state it carries whole.
        func apply(batch bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
            let batch = try JSONParser.parse(bytes)
            state = try Self.advance(state, revision: &revision, by: batch, file: file, line: line)
            return batch
        }

        /// `state` at `revision` brought forward by a patch-mode batch or state-handler
        /// message: its whole state, or its patch, which must continue from `revision`.
        static func advance(_ state: JSONValue, revision: inout UInt64, by message: JSONValue,
                            file: StaticString = #filePath, line: UInt = #line) throws -> JSONValue {
            let next: JSONValue
            if let whole = message["state"] {
                XCTAssertNil(message["patch"], "a batch carries a state or a patch, not both", file: file, line: line)
                XCTAssertNil(message["base"], "a whole state has no base", file: file, line: line)
                next = whole
            } else {
                XCTAssertEqual(int(message["base"]), Int64(revision), "base continues from the last revision", file: file, line: line)
                next = try TestPatch.apply(message["patch"] ?? .null, to: state)
            }
            revision = UInt64(int(message["revision"]))
            return next
        }

        func fullState() throws -> JSONValue {
            var out: [UInt8] = []
            try system.writeState { out = Array($0) }
            return try JSONParser.parse(out)
        }
    }

    private func makeSystem(_ feature: String, state: String? = nil) throws -> AnySystem {
        let descriptor = try catalog.named(feature)
        guard let state else { return try descriptor.makeSystem() }
        return try Array(state.utf8).withUnsafeBytes { try descriptor.makeSystem(state: $0) }
    }

    private func send(_ system: AnySystem, _ event: String, _ batch: inout [UInt8]) throws -> Status {
        var received: [UInt8] = []
        let status = try Array(event.utf8).withUnsafeBytes { bytes in try system.send(bytes, batch: { received = Array($0) }) }
        batch = received
        return status
    }

    private func deliver(_ system: AnySystem, _ id: UInt64, _ event: String, _ batch: inout [UInt8]) throws -> Status {
        var received: [UInt8] = []
        let status = try Array(event.utf8).withUnsafeBytes { bytes in try system.deliver(id, bytes, batch: { received = Array($0) }) }
        batch = received
        return status
    }

    // MARK: - Golden files, replayed in patch mode

    /// Every golden file twice: patches read from batches, then from the state handler
    /// (one patch per step) with no batches.
    func testPatchesReproduceEveryGoldenState() throws {
        var checkedSteps = 0
        for viaHandler in [false, true] {
        for url in GoldenFiles.files(in: GoldenFileTests.goldenDirectory) {
            let file = try JSONParser.parse(Array(try Data(contentsOf: url)))
            guard case .string(let feature)? = file["feature"], case .array(let steps)? = file["steps"] else { continue }
            let system: AnySystem
            switch file["state"] {
            case nil, .null?: system = try makeSystem(feature)
            case let state?:
                guard let made = try? makeSystem(feature, state: JSONWriter.string(state)) else { continue }
                system = made
            }
            let mirror = try Mirror(system)
            // A second mirror fed by the state handler, one patch per step.
            var handlerMirror = mirror.state
            var handlerRevision = mirror.revision
            var handlerError: String?
            if viaHandler { system.setStateHandler { pointer in
                do {
                    let message = try JSONParser.parse(String(cString: pointer))
                    if message["state"] == nil, Mirror.int(message["base"]) != Int64(handlerRevision) {
                        handlerError = "handler patch does not continue"
                    }
                    handlerMirror = try Mirror.advance(handlerMirror, revision: &handlerRevision, by: message)
                } catch {
                    handlerError = "\(error)"
                }
            } }
            for (index, step) in steps.enumerated() {
                guard case .object(let fields) = step, let action = fields.first?.0 else { continue }
                var batch: [UInt8] = []
                let sink: JSONSink? = viaHandler ? nil : { batch = Array($0) }
                let status: Status
                do {
                    switch action {
                    case "send":
                        status = try Array(JSONWriter.string(step["send"] ?? .null).utf8).withUnsafeBytes { try system.send($0, ifAny: sink) }
                    case "sendRaw":
                        guard case .string(let raw)? = step["sendRaw"] else { continue }
                        status = try Array(raw.utf8).withUnsafeBytes { try system.send($0, ifAny: sink) }
                    case "deliver":
                        let argument = step["deliver"] ?? .null
                        let id = UInt64(max(Mirror.int(argument["effect"]), 0))
                        let text: String
                        if case .string(let raw)? = argument["raw"] { text = raw } else { text = JSONWriter.string(argument["event"] ?? .null) }
                        status = try Array(text.utf8).withUnsafeBytes { try system.deliver(id, $0, ifAny: sink) }
                    case "complete":
                        let argument = step["complete"] ?? .null
                        let id = UInt64(max(Mirror.int(argument["effect"] ?? argument), 0))
                        status = try system.complete(id, ifAny: sink)
                    default:
                        continue
                    }
                } catch is CoreLogicError {
                    continue
                }
                guard status == .ok else { continue }
                let name = "\(url.lastPathComponent) step \(index + 1)\(viaHandler ? " (handler)" : "")"
                let full = try mirror.fullState()
                if viaHandler {
                    XCTAssertTrue(TestPatch.same(handlerMirror, full), "\(name): handler patches give \(JSONWriter.string(handlerMirror))")
                    XCTAssertNil(handlerError, name)
                } else {
                    _ = try mirror.apply(batch: batch)
                    XCTAssertTrue(TestPatch.same(mirror.state, full), "\(name): batch patches give \(JSONWriter.string(mirror.state)), state is \(JSONWriter.string(full))")
                }
                if let expected = step["expect"]?["state"] {
                    XCTAssertTrue(TestPatch.same(viaHandler ? handlerMirror : mirror.state, expected), "\(name): mirror differs from the golden state")
                }
                checkedSteps += 1
            }
        }
        }
        XCTAssertGreaterThan(checkedSteps, 200, "the golden files should give hundreds of ok steps")
    }

    // MARK: - Random sequences: patch mode against full mode

    /// Events for each feature, taken from its golden files (sends and deliveries).
    private func eventPool() throws -> [String: [String]] {
        var pool: [String: Set<String>] = [:]
        for url in GoldenFiles.files(in: GoldenFileTests.goldenDirectory) {
            let file = try JSONParser.parse(Array(try Data(contentsOf: url)))
            guard case .string(let feature)? = file["feature"], case .array(let steps)? = file["steps"] else { continue }
            for step in steps {
                if let event = step["send"] { pool[feature, default: []].insert(JSONWriter.string(event)) }
                if let event = step["deliver"]?["event"] { pool[feature, default: []].insert(JSONWriter.string(event)) }
            }
        }
        return pool.mapValues { $0.sorted() }
    }

    func testRandomSequencesAgreeWithFullMode() throws {
        let pool = try eventPool()
        XCTAssertGreaterThanOrEqual(pool.count, 8)
        var calls = 0
        for (featureIndex, feature) in pool.keys.sorted().enumerated() {
            let events = pool[feature] ?? []
            for seed in 0..<3 {
                var random = SeededGenerator(seed: UInt64(featureIndex * 100 + seed))
                let patched = try makeSystem(feature)
                let mirror = try Mirror(patched)
                var running: [UInt64] = []
                for _ in 0..<400 {
                    var batch: [UInt8] = []
                    let sink: JSONSink = { batch = Array($0) }
                    // Sometimes no batch at all: the next patch spans both calls.
                    let wantsBatch = Int.random(in: 0..<5, using: &random) != 0
                    let event = events.randomElement(using: &random) ?? "{}"
                    let status: Status
                    do {
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0..<5:
                            status = try Array(event.utf8).withUnsafeBytes { try patched.send($0, ifAny: wantsBatch ? sink : nil) }
                        case 5..<9:
                            let id = running.randomElement(using: &random) ?? UInt64.random(in: 1...5, using: &random)
                            status = try Array(event.utf8).withUnsafeBytes { try patched.deliver(id, $0, ifAny: wantsBatch ? sink : nil) }
                        default:
                            let id = running.randomElement(using: &random) ?? 1
                            status = try patched.complete(id, ifAny: wantsBatch ? sink : nil)
                        }
                    } catch is CoreLogicError {
                        continue
                    }
                    guard status == .ok, wantsBatch else { continue }
                    let parsed = try mirror.apply(batch: batch)
                    if case .array(let commands)? = parsed["effects"] {
                        for command in commands {
                            if case .int(let id)? = command["cancel"] { running.removeAll { $0 == UInt64(id) } }
                            if case .int(let id)? = command["start"]?["id"] { running.append(UInt64(id)) }
                        }
                    }
                    let full = try mirror.fullState()
                    XCTAssertTrue(TestPatch.same(mirror.state, full), "\(feature) seed \(seed): \(JSONWriter.string(mirror.state)) vs \(JSONWriter.string(full))")
                    calls += 1
                }
            }
        }
        XCTAssertGreaterThan(calls, 3000)
    }

    /// A search state of more than 64 bytes of JSON, so that patch mode sends patches.
    private let largerSearch = #"{"query":"swift","items":[],"nextURL":"/search/repositories?q=swift","shouldLoadNextPage":false}"#

    func testFullModeBatchesKeepTheirBytes() throws {
        let system = try makeSystem("search", state: largerSearch)
        var batch: [UInt8] = []
        XCTAssertEqual(try send(system, #""reachedBottom""#, &batch), .ok)
        XCTAssertTrue(String(decoding: batch, as: UTF8.self).hasPrefix(#"{"state":{"query":"swift","items":[],"#))
        var snapshot: [UInt8] = []
        try system.setOutput(.patch) { snapshot = Array($0) }
        XCTAssertEqual(String(decoding: snapshot, as: UTF8.self),
                       #"{"revision":1,"state":{"query":"swift","items":[],"nextURL":"/search/repositories?q=swift","shouldLoadNextPage":true}}"#)
        XCTAssertEqual(try send(system, #"{"loadFailed":{"error":"offline"}}"#, &batch), .ok)
        XCTAssertEqual(String(decoding: batch, as: UTF8.self),
                       #"{"revision":2,"base":1,"patch":[{"op":"replace","path":"/shouldLoadNextPage","value":false},"#
                       + #"{"op":"add","path":"/lastError","value":{"offline":{}}}],"effects":[{"cancel":1},"#
                       + #"{"start":{"id":2,"feedback":"retryTimer","request":{"seconds":1.0}}}],"steps":1}"#)
        try system.setOutput(.full) { snapshot = Array($0) }
        XCTAssertEqual(try send(system, #""retry""#, &batch), .ok)
        XCTAssertTrue(String(decoding: batch, as: UTF8.self).hasPrefix(#"{"state":{"query":"swift","items":[],"#))
    }

    /// A state of at most 64 bytes of JSON is sent whole, `{"revision":R,"state":{...}}`:
    /// no patch is cheaper for a host to read. The first larger state is sent whole too and
    /// patches follow from it, until a baseline finds the state small again.
    func testSmallStatesAreSentWholeUntilTheyGrow() throws {
        let counter = try makeSystem("counter")
        var batch: [UInt8] = []
        var snapshot: [UInt8] = []
        try counter.setOutput(.patch) { snapshot = Array($0) }
        XCTAssertEqual(String(decoding: snapshot, as: UTF8.self), #"{"revision":0,"state":{"count":0}}"#)
        XCTAssertEqual(try send(counter, #""increment""#, &batch), .ok)
        XCTAssertEqual(String(decoding: batch, as: UTF8.self), #"{"revision":1,"state":{"count":1},"effects":[],"steps":1}"#)
        _ = try Array(#""increment""#.utf8).withUnsafeBytes { try counter.send($0) }
        XCTAssertEqual(try send(counter, #""increment""#, &batch), .ok)
        XCTAssertEqual(String(decoding: batch, as: UTF8.self), #"{"revision":3,"state":{"count":3},"effects":[],"steps":1}"#)

        let search = try makeSystem("search")
        let mirror = try Mirror(search)
        XCTAssertEqual(try send(search, #"{"queryChanged":{"text":"a"}}"#, &batch), .ok)
        var parsed = try mirror.apply(batch: batch)
        XCTAssertEqual(JSONWriter.string(parsed["state"] ?? .null),
                       #"{"query":"a","items":[],"nextURL":"/search/repositories?q=a","shouldLoadNextPage":true}"#,
                       "the state that outgrows 64 bytes is sent whole")
        XCTAssertEqual(try send(search, #"{"queryChanged":{"text":"b"}}"#, &batch), .ok)
        parsed = try mirror.apply(batch: batch)
        XCTAssertEqual(Mirror.int(parsed["base"]), 1, "then patches, from the state sent whole")
        XCTAssertEqual(try send(search, #"{"queryChanged":{"text":""}}"#, &batch), .ok)
        parsed = try mirror.apply(batch: batch)
        XCTAssertNotNil(parsed["patch"], "patches go on when the state shrinks, until a new baseline")
        XCTAssertTrue(TestPatch.same(mirror.state, try mirror.fullState()))
        var out: [UInt8] = []
        try search.resync { out = Array($0) }
        XCTAssertEqual(String(decoding: out, as: UTF8.self), #"{"revision":3,"state":{"query":"","items":[],"shouldLoadNextPage":false}}"#)
        XCTAssertEqual(try send(search, #""reachedBottom""#, &batch), .ok)
        XCTAssertEqual(String(decoding: batch, as: UTF8.self),
                       #"{"revision":4,"state":{"query":"","items":[],"shouldLoadNextPage":false},"effects":[],"steps":1}"#,
                       "a baseline that finds the state small sends it whole again")
    }

    /// The state handler follows the same rule, one message per step.
    func testTheStateHandlerGetsSmallStatesWhole() throws {
        let system = try makeSystem("search")
        var messages: [String] = []
        try system.setOutput(.patch) { _ in }
        system.setStateHandler { messages.append(String(cString: $0)) }
        _ = try Array(#""reachedBottom""#.utf8).withUnsafeBytes { try system.send($0) }
        _ = try Array(#"{"queryChanged":{"text":"a"}}"#.utf8).withUnsafeBytes { try system.send($0) }
        _ = try Array(#"{"queryChanged":{"text":"b"}}"#.utf8).withUnsafeBytes { try system.send($0) }
        XCTAssertEqual(messages, [
            #"{"revision":1,"state":{"query":"","items":[],"shouldLoadNextPage":false}}"#,
            #"{"revision":2,"state":{"query":"a","items":[],"nextURL":"/search/repositories?q=a","shouldLoadNextPage":true}}"#,
            #"{"revision":3,"base":2,"patch":[{"op":"replace","path":"/query","value":"b"},"#
                + #"{"op":"replace","path":"/nextURL","value":"/search/repositories?q=b"}]}"#,
        ])
    }

    func testANullBatchIsCoveredByTheNextPatch() throws {
        let system = try makeSystem("search", state: largerSearch)
        let mirror = try Mirror(system)
        _ = try Array(#""reachedBottom""#.utf8).withUnsafeBytes { try system.send($0) }
        var batch: [UInt8] = []
        XCTAssertEqual(try send(system, #"{"loadFailed":{"error":"offline"}}"#, &batch), .ok)
        let parsed = try mirror.apply(batch: batch)
        XCTAssertEqual(Mirror.int(parsed["base"]), 0)
        XCTAssertEqual(Mirror.int(parsed["revision"]), 2)
        XCTAssertTrue(TestPatch.same(mirror.state, try mirror.fullState()))
    }

    func testResyncStartsANewBaseline() throws {
        let system = try makeSystem("search", state: largerSearch)
        _ = try Mirror(system)
        var batch: [UInt8] = []
        XCTAssertEqual(try send(system, #""reachedBottom""#, &batch), .ok)
        var out: [UInt8] = []
        try system.resync { out = Array($0) }
        XCTAssertEqual(String(decoding: out, as: UTF8.self),
                       #"{"revision":1,"state":{"query":"swift","items":[],"nextURL":"/search/repositories?q=swift","shouldLoadNextPage":true}}"#)
        XCTAssertEqual(try send(system, #"{"loadFailed":{"error":"offline"}}"#, &batch), .ok)
        XCTAssertEqual(Mirror.int(try JSONParser.parse(batch)["base"]), 1)
    }

    // MARK: - Cost follows the change

    /// An element that counts how often it is encoded.
    struct Counted: Codable, Equatable {
        static var encodes = 0
        var id: Int
        func encode(to encoder: Encoder) throws {
            Counted.encodes += 1
            var container = encoder.singleValueContainer()
            try container.encode(id)
        }
        init(id: Int) { self.id = id }
        init(from decoder: Decoder) throws { id = try decoder.singleValueContainer().decode(Int.self) }
    }

    struct ListState: Codable, Equatable {
        var title = ""
        var tracked = TrackedArray<Counted>()
        var plain: [Counted] = []
        var flag = false
    }

    func testAnUntouchedListIsNotLookedAt() throws {
        var state = ListState()
        state.tracked = TrackedArray((0..<100_000).map { Counted(id: $0) })
        state.plain = (0..<100_000).map { Counted(id: $0) }
        let differ = StateDiffer<ListState>()
        try differ.reset(to: state)

        Counted.encodes = 0
        state.flag = true
        var patch: [UInt8] = []
        try differ.diff(to: state, into: &patch)
        XCTAssertEqual(String(decoding: patch, as: UTF8.self), #"[{"op":"replace","path":"/flag","value":true}]"#)
        XCTAssertEqual(Counted.encodes, 0, "neither list's elements were encoded")
    }

    func testAppendingToATrackedListEncodesOnlyTheNewElements() throws {
        var state = ListState()
        state.tracked = TrackedArray((0..<100_000).map { Counted(id: $0) })
        let differ = StateDiffer<ListState>()
        try differ.reset(to: state)

        Counted.encodes = 0
        state.tracked.append(contentsOf: (0..<10).map { Counted(id: 1_000_000 + $0) })
        var patch: [UInt8] = []
        try differ.diff(to: state, into: &patch)
        XCTAssertEqual(Counted.encodes, 10)
        let operations = try JSONParser.parse(patch)
        guard case .array(let ops) = operations else { return XCTFail("not an array") }
        XCTAssertEqual(ops.count, 10)
        XCTAssertEqual(ops.first.map(JSONWriter.string), #"{"op":"add","path":"/tracked/-","value":1000000}"#)
    }

    func testTrackedEditsReproduceTheArray() throws {
        var random = SeededGenerator(seed: 7)
        var state = ListState()
        state.tracked = TrackedArray((0..<50).map { Counted(id: $0) })
        let differ = StateDiffer<ListState>()
        try differ.reset(to: state)
        var mirror = try JSONCoding.encodeToValue(state)
        for round in 0..<2000 {
            var copy: ListState? = nil
            switch Int.random(in: 0..<9, using: &random) {
            case 0: state.tracked.append(Counted(id: round))
            case 1: if !state.tracked.isEmpty { state.tracked[Int.random(in: 0..<state.tracked.count, using: &random)] = Counted(id: -round) }
            case 2: if !state.tracked.isEmpty { state.tracked.remove(at: Int.random(in: 0..<state.tracked.count, using: &random)) }
            case 3: state.tracked.insert(Counted(id: round), at: Int.random(in: 0...state.tracked.count, using: &random))
            case 4: if !state.tracked.isEmpty { state.tracked.removeLast() }
            case 5: if Int.random(in: 0..<20, using: &random) == 0 { state.tracked.removeAll() }
            case 6:
                // A copy mutated, then stored back: the history continues on a new branch.
                copy = state
                var items = state.tracked
                items.append(Counted(id: 7 * round))
                state.tracked = items
            case 7: state.tracked.sort { $0.id > $1.id }
            default: state.title = "t\(round % 3)"
            }
            _ = copy
            var patch: [UInt8] = []
            try differ.diff(to: state, into: &patch)
            mirror = try TestPatch.apply(try JSONParser.parse(patch), to: mirror)
            XCTAssertTrue(TestPatch.same(mirror, try JSONCoding.encodeToValue(state)), "round \(round)")
        }
    }

    func testDivergedCopiesAreNotConfused() throws {
        var state = ListState()
        state.tracked = [Counted(id: 1), Counted(id: 2)]
        let differ = StateDiffer<ListState>()
        try differ.reset(to: state)
        var other = state                         // shares the storage
        other.tracked.append(Counted(id: 30))     // branch B
        state.tracked.append(Counted(id: 3))      // branch C
        var patch: [UInt8] = []
        try differ.diff(to: state, into: &patch)  // sees C
        var mirror = try TestPatch.apply(try JSONParser.parse(patch), to: try JSONCoding.encodeToValue(ListState(tracked: [Counted(id: 1), Counted(id: 2)])))
        state = other                             // switch to B: not a continuation of C
        patch = []
        try differ.diff(to: state, into: &patch)
        mirror = try TestPatch.apply(try JSONParser.parse(patch), to: mirror)
        XCTAssertTrue(TestPatch.same(mirror, try JSONCoding.encodeToValue(state)))
    }

    func testStringsDifferingOnlyInNormalisationArePatched() throws {
        struct Text: Codable { var inner: Inner; struct Inner: Codable, Equatable { var text: String } }
        var state = Text(inner: .init(text: "caf\u{E9}"))
        let differ = StateDiffer<Text>()
        try differ.reset(to: state)
        state.inner.text = "cafe\u{301}"   // == in Swift, different JSON
        var patch: [UInt8] = []
        try differ.diff(to: state, into: &patch)
        XCTAssertEqual(String(decoding: patch, as: UTF8.self), "[{\"op\":\"replace\",\"path\":\"/inner/text\",\"value\":\"cafe\u{301}\"}]")
    }

    func testPointersAreEscapedAndDictionariesSorted() throws {
        struct Bag: Codable { var map: [String: Int] }
        var state = Bag(map: ["a/b": 1, "c~d": 2])
        let differ = StateDiffer<Bag>()
        try differ.reset(to: state)
        state.map["a/b"] = 5
        state.map["c~d"] = nil
        state.map["z"] = 0
        state.map["e"] = 1
        var patch: [UInt8] = []
        try differ.diff(to: state, into: &patch)
        XCTAssertEqual(String(decoding: patch, as: UTF8.self),
                       #"[{"op":"replace","path":"/map/a~1b","value":5},{"op":"add","path":"/map/e","value":1},{"op":"add","path":"/map/z","value":0},{"op":"remove","path":"/map/c~0d"}]"#)
    }

    func testAFailedDiffKeepsTheLastState() throws {
        struct Number: Codable { var value: Double }
        let differ = StateDiffer<Number>()
        try differ.reset(to: Number(value: 1))
        var patch: [UInt8] = []
        XCTAssertThrowsError(try differ.diff(to: Number(value: .infinity), into: &patch))
        XCTAssertEqual(patch, [])
        try differ.diff(to: Number(value: 2), into: &patch)
        XCTAssertEqual(String(decoding: patch, as: UTF8.self), #"[{"op":"replace","path":"/value","value":2.0}]"#)
    }

    // MARK: - Watched queries

    func testWatchedQueriesReportOnlyChanges() throws {
        let system = try makeSystem("counter")
        var values: [UInt8]? = []
        try system.watchQueries(["isZero"]) { values = Array($0) }
        XCTAssertEqual(String(decoding: values ?? [], as: UTF8.self), #"{"isZero":true}"#)
        var batch: [UInt8] = []
        XCTAssertEqual(try send(system, #""increment""#, &batch), .ok)
        XCTAssertEqual(String(decoding: batch, as: UTF8.self), #"{"state":{"count":1},"queries":{"isZero":false},"effects":[],"steps":1}"#)
        XCTAssertEqual(try send(system, #""increment""#, &batch), .ok)
        XCTAssertEqual(String(decoding: batch, as: UTF8.self), #"{"state":{"count":2},"queries":{},"effects":[],"steps":1}"#)
        try system.watchQueries([]) { values = Array($0) }
        XCTAssertEqual(try send(system, #""increment""#, &batch), .ok)
        XCTAssertEqual(String(decoding: batch, as: UTF8.self), #"{"state":{"count":3},"effects":[],"steps":1}"#)
    }

    func testUnknownWatchedQueryChangesNothing() throws {
        let system = try makeSystem("search")
        var values: [UInt8]? = []
        try system.watchQueries(["canLoadMore"]) { values = Array($0) }
        XCTAssertThrowsError(try system.watchQueries(["canLoadMore", "nope"]) { values = Array($0) }) { error in
            XCTAssertEqual((error as? CoreLogicError)?.status, .notFound)
            XCTAssertTrue((error as? CoreLogicError)?.message.contains("isLoadingNextPage") ?? false, "\(error)")
        }
        var batch: [UInt8] = []
        // Still watching exactly canLoadMore: it changes when the page arrives.
        XCTAssertEqual(try send(system, #"{"queryChanged":{"text":"a"}}"#, &batch), .ok)
        XCTAssertTrue(String(decoding: batch, as: UTF8.self).contains(#""queries":{},"effects""#))
        XCTAssertEqual(try deliver(system, 1, #"{"pageLoaded":{"items":[],"nextURL":"/2"}}"#, &batch), .ok)
        XCTAssertTrue(String(decoding: batch, as: UTF8.self).contains(#""queries":{"canLoadMore":true},"effects""#))
    }

    func testANewEmptyListIsNoChange() throws {
        // queryChanged assigns a new empty list to the empty one: nothing to patch.
        let system = try makeSystem("search", state: largerSearch)
        let mirror = try Mirror(system)
        var batch: [UInt8] = []
        XCTAssertEqual(try send(system, #"{"queryChanged":{"text":"sw"}}"#, &batch), .ok)
        let patch = try mirror.apply(batch: batch)["patch"]
        XCTAssertEqual(patch.map(JSONWriter.string),
                       #"[{"op":"replace","path":"/query","value":"sw"},{"op":"replace","path":"/nextURL","value":"/search/repositories?q=sw"},{"op":"replace","path":"/shouldLoadNextPage","value":true}]"#)
        XCTAssertTrue(TestPatch.same(mirror.state, try mirror.fullState()))

        // The same through the shadow tree (a state without a direct conformance).
        var state = ListState()
        let differ = StateDiffer<ListState>()
        try differ.reset(to: state)
        state.tracked = []
        var bytes: [UInt8] = []
        try differ.diff(to: state, into: &bytes)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "[]")
    }

    /// The field-by-field differ (a state with a generated patch) and the byte differ (a
    /// state with a direct conformance) write exactly the operations of the shadow tree,
    /// for random changes to every part of the search state.
    func testTheTypedAndByteDiffersWriteTheTreeDiffersPatches() throws {
        var random = SeededGenerator(seed: 11)
        var state = Search.State()
        let typed = StateDiffer<Search.State>()
        let bytes = StateDiffer<Search.State>(typed: false)
        let tree = StateDiffer<Search.State>(direct: false)
        try typed.reset(to: state)
        try bytes.reset(to: state)
        try tree.reset(to: state)
        var mirror = try JSONCoding.encodeToValue(state)
        func repository(_ n: Int) -> Search.Repository {
            Search.Repository(id: Int64(n), name: n % 5 == 0 ? "a/b~\"\(n)\"\u{E9}" : "r\(n)", stars: n % 7)
        }
        for round in 0..<3000 {
            var copy: Search.State? = nil
            switch Int.random(in: 0..<14, using: &random) {
            case 0: state.items.append(repository(round))
            case 1: state.items.append(contentsOf: (0..<Int.random(in: 0..<12, using: &random)).map { repository(round * 100 + $0) })
            case 2: if !state.items.isEmpty { state.items[Int.random(in: 0..<state.items.count, using: &random)].stars += 1 }
            case 3: if !state.items.isEmpty { state.items.remove(at: Int.random(in: 0..<state.items.count, using: &random)) }
            case 4: state.items.insert(repository(round), at: Int.random(in: 0...state.items.count, using: &random))
            case 5: if Int.random(in: 0..<10, using: &random) == 0 { state.items = [] }
            case 6:
                copy = state
                var items = state.items
                items.append(repository(-round))
                state.items = items
            case 7: state.query = ["", "q", "sw/ift", "q~1"][Int.random(in: 0..<4, using: &random)]
            case 8: state.nextURL = Bool.random(using: &random) ? nil : "/p\(round % 3)"
            case 9: state.shouldLoadNextPage.toggle()
            case 10: state.lastError = [nil, .offline, .rateLimited(retryAfter: 1.5), .rateLimited(retryAfter: 2)][Int.random(in: 0..<4, using: &random)]
            case 11: state = Search.State(query: "x", items: (0..<Int.random(in: 0..<4, using: &random)).map(repository))
            case 12: if !state.items.isEmpty { state.items.removeLast() }
            default: break
            }
            _ = copy
            var fromTyped: [UInt8] = []
            var fromBytes: [UInt8] = []
            var fromTree: [UInt8] = []
            try typed.diff(to: state, into: &fromTyped)
            try bytes.diff(to: state, into: &fromBytes)
            try tree.diff(to: state, into: &fromTree)
            XCTAssertEqual(String(decoding: fromTyped, as: UTF8.self), String(decoding: fromTree, as: UTF8.self), "round \(round)")
            XCTAssertEqual(String(decoding: fromBytes, as: UTF8.self), String(decoding: fromTree, as: UTF8.self), "round \(round)")
            mirror = try TestPatch.apply(try JSONParser.parse(fromBytes), to: mirror)
            XCTAssertTrue(TestPatch.same(mirror, try JSONCoding.encodeToValue(state)), "round \(round)")
        }
    }

    func testTheByteDifferEmitsNothingForAnUnchangedState() throws {
        var state = Search.State(query: "q", items: (0..<100).map { Search.Repository(id: Int64($0), name: "r", stars: 1) })
        let differ = StateDiffer<Search.State>()
        try differ.reset(to: state)
        var patch: [UInt8] = []
        try differ.diff(to: state, into: &patch)
        XCTAssertEqual(String(decoding: patch, as: UTF8.self), "[]")
        state.items.append(Search.Repository(id: 1000, name: "n", stars: 2))
        patch = []
        try differ.diff(to: state, into: &patch)
        XCTAssertEqual(String(decoding: patch, as: UTF8.self), #"[{"op":"add","path":"/items/-","value":{"id":1000,"name":"n","stars":2}}]"#)
        patch = []
        try differ.diff(to: state, into: &patch)
        XCTAssertEqual(String(decoding: patch, as: UTF8.self), "[]")
    }

    func testTheFirstDiffAfterAResetSeesATrackedListThatMoved() throws {
        // The list's reference moves (a longer query before it) and the list changes, in
        // the first diff after the baseline.
        var state = Search.State()
        let differ = StateDiffer<Search.State>()
        try differ.reset(to: state)
        state.query = "swift"
        state.items = [Search.Repository(id: 1, name: "a/b", stars: 10)]
        var patch: [UInt8] = []
        try differ.diff(to: state, into: &patch)
        XCTAssertEqual(String(decoding: patch, as: UTF8.self),
                       #"[{"op":"replace","path":"/query","value":"swift"},{"op":"replace","path":"/items","value":[{"id":1,"name":"a/b","stars":10}]}]"#)
    }

    func testTheByteDifferKeepsTheLastStateWhenAnElementCannotBeWritten() throws {
        var state = Search.State(query: "q")
        let differ = StateDiffer<Search.State>()
        try differ.reset(to: state)
        state.lastError = .rateLimited(retryAfter: .infinity)
        var patch: [UInt8] = []
        XCTAssertThrowsError(try differ.diff(to: state, into: &patch))
        XCTAssertEqual(patch, [])
        state.lastError = .offline
        try differ.diff(to: state, into: &patch)
        XCTAssertEqual(String(decoding: patch, as: UTF8.self), #"[{"op":"add","path":"/lastError","value":{"offline":{}}}]"#)
    }

    func testSearchPageAppendIsAPatchOfTheNewItems() throws {
        let items = (0..<1000).map { #"{"id":\#($0),"name":"r\#($0)","stars":1}"# }.joined(separator: ",")
        let system = try makeSystem("search", state: #"{"query":"q","items":[\#(items)],"nextURL":"/p2","shouldLoadNextPage":true}"#)
        let mirror = try Mirror(system)
        var batch: [UInt8] = []
        let status = try deliver(system, 1, #"{"pageLoaded":{"items":[{"id":5000,"name":"x","stars":2}],"nextURL":"/p3"}}"#, &batch)
        XCTAssertEqual(status, .ok)
        let text = String(decoding: batch, as: UTF8.self)
        XCTAssertTrue(text.contains(#"{"op":"add","path":"/items/-","value":{"id":5000,"name":"x","stars":2}}"#), text)
        XCTAssertLessThan(batch.count, 400, "the batch carries the change, not the 1000 items")
        _ = try mirror.apply(batch: batch)
        XCTAssertTrue(TestPatch.same(mirror.state, try mirror.fullState()))
    }
}

/// An input with a batch or without one, as a run chooses step by step.
private extension AnySystem {
    func send(_ event: UnsafeRawBufferPointer, ifAny sink: JSONSink?) throws -> Status {
        if let sink { return try send(event, batch: sink) }
        return try send(event)
    }

    func deliver(_ effect: UInt64, _ event: UnsafeRawBufferPointer, ifAny sink: JSONSink?) throws -> Status {
        if let sink { return try deliver(effect, event, batch: sink) }
        return try deliver(effect, event)
    }

    func complete(_ effect: UInt64, ifAny sink: JSONSink?) throws -> Status {
        if let sink { return try complete(effect, batch: sink) }
        return try complete(effect)
    }
}
