import XCTest
@testable import CoreLogic

/// A state whose encodings are counted.
private enum Tally: Feature {
    struct Mark: Codable, Equatable {
        nonisolated(unsafe) static var encodes = 0
        var id: Int
        init(id: Int) { self.id = id }
        func encode(to encoder: Encoder) throws {
            Mark.encodes += 1
            var container = encoder.singleValueContainer()
            try container.encode(id)
        }
        init(from decoder: Decoder) throws { id = try decoder.singleValueContainer().decode(Int.self) }
    }

    struct State: Codable, Equatable { var marks: [Mark] = [] }

    enum Event: Codable, Equatable {
        case add
        enum CodingKeys: String, CodingKey, CaseIterable { case add }
    }

    static let name = "tally"
    static var initialState: State { State() }
    static func reduce(_ state: inout State, _ event: Event) {
        state.marks.append(Mark(id: state.marks.count))
    }
}

/// With a state handler in full mode, each step's state is encoded once: the handler gets
/// it and the batch of the same call carries the same bytes.
final class StateHandlerOutputTests: XCTestCase {
    private func send(_ system: AnySystem, _ event: String, batch: inout String) throws -> Status {
        var copy = ""
        let status = try Array(event.utf8).withUnsafeBytes { bytes in
            try system.send(bytes, batch: { copy = String(decoding: $0, as: UTF8.self) })
        }
        batch = copy
        return status
    }

    func testTheBatchReusesTheStateTheHandlerWasGiven() throws {
        let system = try FeatureDescriptor(Tally.self).makeSystem()
        defer { system.close() }
        var handled: [String] = []
        system.setStateHandler { handled.append(String(cString: $0)) }
        var batch = ""
        for _ in 0..<5 { _ = try send(system, #""add""#, batch: &batch) }

        Tally.Mark.encodes = 0
        XCTAssertEqual(try send(system, #""add""#, batch: &batch), .ok)
        XCTAssertEqual(Tally.Mark.encodes, 6, "six marks, encoded once for the handler and the batch together")
        let expected = #"{"marks":[0,1,2,3,4,5]}"#
        XCTAssertEqual(handled.last, expected)
        XCTAssertEqual(batch, #"{"state":"# + expected + #","effects":[],"steps":1}"#)

        // Without a handler the batch encodes the state itself, and it is still right.
        system.setStateHandler(nil)
        Tally.Mark.encodes = 0
        XCTAssertEqual(try send(system, #""add""#, batch: &batch), .ok)
        XCTAssertEqual(Tally.Mark.encodes, 7)
        XCTAssertEqual(batch, #"{"state":{"marks":[0,1,2,3,4,5,6]},"effects":[],"steps":1}"#)
    }

    /// A call queued from inside the handler writes its own batch while the handler holds
    /// its bytes: that batch is the current state, whole, with nothing of the handler's.
    func testACallQueuedFromTheHandlerGetsAWholeBatch() throws {
        let system = try FeatureDescriptor(Tally.self).makeSystem()
        defer { system.close() }
        var inner: [String] = []
        var depth = 0
        system.setStateHandler { _ in
            guard depth == 0 else { return }
            depth += 1
            var batch = ""
            _ = try? Array(#""add""#.utf8).withUnsafeBytes { bytes in
                try system.send(bytes, batch: { batch = String(decoding: $0, as: UTF8.self) })
            }
            inner.append(batch)
        }
        var batch = ""
        XCTAssertEqual(try send(system, #""add""#, batch: &batch), .ok)
        XCTAssertEqual(inner, [#"{"state":{"marks":[0]},"effects":[],"steps":0}"#])
        XCTAssertEqual(batch, #"{"state":{"marks":[0,1]},"effects":[],"steps":2}"#)
        XCTAssertNoThrow(try JSONParser.parse(batch))
    }
}
