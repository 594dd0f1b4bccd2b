import XCTest
@testable import CoreLogic
@testable import Cookbook

/// Traces (docs/inspector.md): the exact lines a traced system writes, with a clock
/// that ticks 100 ns per reading so durations are part of the bytes compared.
final class TraceRecorderTests: XCTestCase {
    private final class Capture {
        var lines: [String] = []
        var refuseAfter = Int.max
        var ticks: UInt64 = 0

        var sink: TraceSink {
            TraceSink(
                write: { [self] bytes in
                    guard lines.count < refuseAfter else { return false }
                    lines.append(String(decoding: bytes, as: UTF8.self))
                    return true
                },
                now: { [self] in
                    ticks += 100
                    return ticks
                }
            )
        }
    }

    private func system(_ feature: String, state: String? = nil) throws -> AnySystem {
        let descriptor = try catalog.named(feature)
        guard let state else { return try descriptor.makeSystem() }
        return try Array(state.utf8).withUnsafeBytes { try descriptor.makeSystem(state: $0) }
    }

    private func send(_ system: AnySystem, _ event: String) throws -> Status {
        try Array(event.utf8).withUnsafeBytes { try system.send($0) }
    }

    private func deliver(_ system: AnySystem, _ effect: UInt64, _ event: String) throws -> Status {
        try Array(event.utf8).withUnsafeBytes { try system.deliver(effect, $0) }
    }

    func testTheFirstLineHoldsStateQueriesAndRunningEffects() throws {
        let capture = Capture()
        let search = try system("search", state: #"{"query":"a","items":[],"nextURL":"/n","shouldLoadNextPage":true}"#)
        try search.setTrace(capture.sink)
        XCTAssertEqual(capture.lines, [
            #"{"corelogicTrace":1,"feature":"search","stateVersion":1,"revision":0,"state":{"query":"a","items":[],"nextURL":"/n","shouldLoadNextPage":true},"#
                + #""queries":{"isLoadingNextPage":true,"canLoadMore":false},"effects":[{"id":1,"feedback":"loadPage","request":{"url":"/n"}}],"nextEffect":2}"#
                + "\n",
        ])
    }

    func testOkStaleAndRefusedInputsEachGetALine() throws {
        let capture = Capture()
        let search = try system("search")
        try search.setTrace(capture.sink)
        XCTAssertEqual(try send(search, #"{ "queryChanged" : { "text" : "sw" } }"#), .ok)
        XCTAssertEqual(try deliver(search, 7, #""reachedBottom""#), .stale)
        XCTAssertThrowsError(try send(search, #"{"queryChanged":{"text":5}}"#))
        XCTAssertEqual(try search.complete(1), .ok)
        XCTAssertEqual(Array(capture.lines.dropFirst()), [
            #"{"seq":1,"input":"send","event":{"queryChanged":{"text":"sw"}},"status":"ok","revision":1,"#
                + #""patch":[{"op":"replace","path":"/query","value":"sw"},"#
                + #"{"op":"add","path":"/nextURL","value":"/search/repositories?q=sw"},{"op":"replace","path":"/shouldLoadNextPage","value":true}],"#
                + #""queries":{"isLoadingNextPage":true},"#
                + #""effects":[{"start":{"id":1,"feedback":"loadPage","request":{"url":"/search/repositories?q=sw"}}}],"ns":100}"# + "\n",
            #"{"seq":2,"input":"deliver","effect":7,"event":{"reachedBottom":{}},"status":"stale"}"# + "\n",
            #"{"seq":3,"input":"send","raw":"{\"queryChanged\":{\"text\":5}}","status":"error:schema","#
                + #""message":"search event: $.queryChanged.text: expected a string, found a number"}"# + "\n",
            #"{"seq":4,"input":"complete","effect":1,"status":"ok","revision":2,"patch":[],"queries":{},"effects":[],"ns":100}"# + "\n",
        ])
    }

    func testInputsQueuedFromAHandlerAreTracedWhenTheyRun() throws {
        let capture = Capture()
        let counter = try system("counter")
        try counter.setTrace(capture.sink)
        var count = 0
        counter.setStateHandler { _ in
            count += 1
            if count < 3 { _ = try? self.send(counter, #""increment""#) }
        }
        XCTAssertEqual(try send(counter, #""increment""#), .ok)
        let steps = Array(capture.lines.dropFirst())
        XCTAssertEqual(steps.count, 3)
        for (index, line) in steps.enumerated() {
            XCTAssertTrue(line.contains(#""seq":\#(index + 1),"input":"send""#), line)
            XCTAssertTrue(line.contains(#""patch":[{"op":"replace","path":"/count","value":\#(index + 1)}]"#), line)
        }
    }

    func testStoppingTracingWritesNothingMore() throws {
        let capture = Capture()
        let counter = try system("counter")
        try counter.setTrace(capture.sink)
        _ = try send(counter, #""increment""#)
        try counter.setTrace(nil)
        _ = try send(counter, #""increment""#)
        XCTAssertThrowsError(try send(counter, "{"))
        XCTAssertEqual(capture.lines.count, 2)
    }

    func testASinkThatRefusesAFirstLineLeavesTracingOff() throws {
        let first = Capture()
        let refusing = Capture()
        refusing.refuseAfter = 0
        let counter = try system("counter")
        try counter.setTrace(first.sink)
        XCTAssertThrowsError(try counter.setTrace(refusing.sink)) { error in
            XCTAssertEqual((error as? CoreLogicError)?.status, .io)
        }
        _ = try send(counter, #""increment""#)
        XCTAssertEqual(first.lines.count, 2, "the trace already running goes on")
    }

    func testASinkThatFailsLaterStopsTracingButNotTheSystem() throws {
        let capture = Capture()
        capture.refuseAfter = 2
        let counter = try system("counter")
        try counter.setTrace(capture.sink)
        for _ in 0..<4 { XCTAssertEqual(try send(counter, #""increment""#), .ok) }
        XCTAssertEqual(capture.lines.count, 2)
        var state: [UInt8] = []
        try counter.writeState { state = Array($0) }
        XCTAssertEqual(String(decoding: state, as: UTF8.self), #"{"count":4}"#)
    }

    /// The trace's patches follow the state like patch output does, with patch output on
    /// at the same time (two differs over one state): applied in order to the first line's
    /// state, they give every state the system reached.
    func testPatchesRebuildEveryStateAlongsidePatchOutput() throws {
        let capture = Capture()
        let search = try system("search")
        var snapshot: [UInt8]? = nil
        try search.setOutput(.patch) { snapshot = Array($0) }
        try search.setTrace(capture.sink)
        var states: [JSONValue] = []
        func record() throws {
            var bytes: [UInt8] = []
            try search.writeState { bytes = Array($0) }
            states.append(try JSONParser.parse(bytes))
        }
        XCTAssertEqual(try send(search, #"{"queryChanged":{"text":"sw"}}"#), .ok); try record()
        let page = #"{"pageLoaded":{"items":[{"id":1,"name":"a","stars":1},{"id":2,"name":"b","stars":2}],"nextURL":"/p2"}}"#
        XCTAssertEqual(try deliver(search, 1, page), .ok); try record()
        XCTAssertEqual(try send(search, #""reachedBottom""#), .ok); try record()
        XCTAssertEqual(try deliver(search, 2, page), .ok); try record()
        XCTAssertEqual(try send(search, #"{"queryChanged":{"text":""}}"#), .ok); try record()
        let lines = try capture.lines.map { try JSONParser.parse($0) }
        guard case .object(let header) = lines[0], let first = header.first(where: { $0.0 == "state" })?.1 else {
            return XCTFail("no state in the first line")
        }
        var state = first
        for (line, expected) in zip(lines.dropFirst(), states) {
            guard case .object(let members) = line, let patch = members.first(where: { $0.0 == "patch" })?.1 else {
                return XCTFail("a step without a patch: \(line)")
            }
            state = try TestPatch.apply(patch, to: state)
            XCTAssertTrue(TestPatch.same(state, expected), "\(state) != \(expected)")
        }
        XCTAssertEqual(lines.count, states.count + 1)
    }
}
