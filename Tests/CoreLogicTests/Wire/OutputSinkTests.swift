import XCTest
@testable import CoreLogic

/// A feature whose state can stop being encodable (1 / 0 is not a JSON number): a
/// feature's bug, which JSON input cannot cause by itself.
private enum Ratio: Feature {
    struct State: Codable, Equatable { var ratio = 0.5 }
    enum Event: Codable, Equatable {
        case divide(by: Int)
        enum CodingKeys: String, CodingKey, CaseIterable { case divide }
    }

    static let name = "ratio"
    static var initialState: State { State() }
    static func reduce(_ state: inout State, _ event: Event) {
        if case .divide(let divisor) = event { state.ratio = 1 / Double(divisor) }
    }
    static var feedbacks: [Feedback<State>] { [] }
    static var queries: [StateQuery<State>] {
        [StateQuery("isWhole") { $0.ratio == $0.ratio.rounded() }]
    }
}

/// Every output of `AnySystem` reaches its sink from the system's one output buffer: each
/// call hands exactly its own JSON, and a call that fails hands nothing and changes nothing.
final class OutputSinkTests: XCTestCase {
    private func send(_ system: AnySystem, _ event: String) throws {
        _ = try Array(event.utf8).withUnsafeBytes { try system.send($0) }
    }

    private func text(_ body: (JSONSink) throws -> Void) rethrows -> String {
        var out: String?
        try body { bytes in
            XCTAssertNil(out, "a sink is called once")
            out = String(decoding: bytes, as: UTF8.self)
        }
        return out ?? "(no call)"
    }

    func testEachOutputHandsExactlyItsOwnJSON() throws {
        let system = try FeatureDescriptor(Ratio.self).makeSystem()
        XCTAssertEqual(try text { try system.writeInitialBatch(to: $0) }, #"{"state":{"ratio":0.5},"effects":[],"steps":0}"#)
        try send(system, #"{"divide":{"by":4}}"#)
        // Written one after the other in the same buffer: nothing of one shows in the next.
        XCTAssertEqual(try text { try system.writeState(to: $0) }, #"{"ratio":0.25}"#)
        XCTAssertEqual(try text { try system.writeQuery("isWhole", to: $0) }, "false")
        XCTAssertEqual(text { system.writeEffects(to: $0) }, "[]")
        XCTAssertEqual(text { system.writeBrokenInvariants(to: $0) }, "[]")
        XCTAssertEqual(try text { try system.watchQueries(["isWhole"], values: $0) }, #"{"isWhole":false}"#)
        XCTAssertEqual(try text { try system.setOutput(.patch, snapshot: $0) }, #"{"revision":1,"state":{"ratio":0.25}}"#)
        XCTAssertEqual(try text { try system.resync(to: $0) }, #"{"revision":1,"state":{"ratio":0.25}}"#)
    }

    func testAnOutputThatCannotBeWrittenReachesNoSinkAndChangesNothing() throws {
        let system = try FeatureDescriptor(Ratio.self).makeSystem()
        try send(system, #"{"divide":{"by":0}}"#)   // ratio = +infinity
        var called = false
        let sink: JSONSink = { _ in called = true }
        XCTAssertThrowsError(try system.writeState(to: sink)) { error in
            XCTAssertEqual((error as? CoreLogicError)?.status, .schema)
        }
        XCTAssertThrowsError(try system.setOutput(.patch, snapshot: sink))
        XCTAssertThrowsError(try system.resync(to: sink))
        XCTAssertFalse(called)
        // Still in full mode: the next batch carries the whole state.
        var batch = ""
        _ = try Array(#"{"divide":{"by":2}}"#.utf8).withUnsafeBytes { bytes in
            try system.send(bytes, batch: { batch = String(decoding: $0, as: UTF8.self) })
        }
        XCTAssertEqual(batch, #"{"state":{"ratio":0.5},"effects":[],"steps":1}"#)
    }
}
