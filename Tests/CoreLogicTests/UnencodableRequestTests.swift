import XCTest
@testable import CoreLogic

/// A feature whose request can become non-finite (1 / 0): a feature's bug, which JSON
/// input cannot cause by itself, used to check that the command still reaches the host.
private enum Divide: Feature {
    struct State: Codable, Equatable { var divisor = 1 }
    enum Event: Codable, Equatable {
        case set(divisor: Int)
        enum CodingKeys: String, CodingKey, CaseIterable { case set }
    }
    struct TimerRequest: Codable, Equatable { var seconds: Double }

    static let name = "divide"
    static var initialState: State { State() }
    static func reduce(_ state: inout State, _ event: Event) {
        if case .set(let divisor) = event { state.divisor = divisor }
    }
    static var feedbacks: [Feedback<State>] {
        [.react("timer") { TimerRequest(seconds: 1 / Double($0.divisor)) }]
    }
    static var queries: [StateQuery<State>] { [] }
}

/// Once a step ran, its commands reach the host: the call succeeds (no error after a
/// change) and a request that cannot be written as JSON is written as null.
final class UnencodableRequestTests: XCTestCase {
    func testAStartWhoseRequestCannotBeEncodedIsDeliveredWithANullRequest() throws {
        let system = try FeatureDescriptor(Divide.self).makeSystem()
        var pushed: [String] = []
        system.setCommandHandler { pushed.append(String(cString: $0)) }
        var batch = ""
        let event = Array(#"{"set":{"divisor":0}}"#.utf8)
        let status = try event.withUnsafeBytes { bytes in
            try system.send(bytes, batch: { batch = String(decoding: $0, as: UTF8.self) })
        }
        XCTAssertEqual(status, .ok)
        XCTAssertEqual(batch, #"{"state":{"divisor":0},"effects":[{"cancel":1},{"start":{"id":2,"feedback":"timer","request":null}}],"steps":1}"#)
        XCTAssertEqual(pushed, [#"{"cancel":1}"#, #"{"start":{"id":2,"feedback":"timer","request":null}}"#])
        var effects: [UInt8] = []
        try system.writeEffects { effects = Array($0) }
        XCTAssertEqual(String(decoding: effects, as: UTF8.self), #"[{"id":2,"feedback":"timer","request":null}]"#)
    }
}
