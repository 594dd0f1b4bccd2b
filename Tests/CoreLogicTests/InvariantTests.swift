import XCTest
@testable import CoreLogic
import CoreLogicTesting

/// A feature with a bug its invariant catches: `raise` has no upper bound.
enum Gauge: Feature {
    struct State: Codable, Equatable {
        var level = 0
        var max = 3
    }

    enum Event: Codable, Equatable {
        case raise, lower
        enum CodingKeys: String, CodingKey, CaseIterable { case raise, lower }
    }

    static let name = "gauge"
    static var initialState: State { State() }

    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .raise: state.level += 1
        case .lower: state.level = Swift.max(state.level - 1, 0)
        }
    }

    static var invariants: [Invariant<State>] {
        [
            Invariant("levelWithinMax") { $0.level <= $0.max ? nil : "level \($0.level) above max \($0.max)" },
            .require("levelNotNegative") { $0.level >= 0 },
        ]
    }
}

/// Invariants are stated beside the reducer, evaluated only when asked, reported by name
/// with their message, in declaration order.
final class InvariantTests: XCTestCase {
    func testBrokenInvariantsAreReportedInDeclarationOrderWithTheirMessages() {
        XCTAssertEqual(Gauge.brokenInvariants(in: .init(level: 1, max: 3)), [])
        XCTAssertEqual(Gauge.brokenInvariants(in: .init(level: 4, max: 3)),
                       [BrokenInvariant(name: "levelWithinMax", message: "level 4 above max 3")])
        XCTAssertEqual(Gauge.brokenInvariants(in: .init(level: -1, max: -2)).map(\.name), ["levelWithinMax", "levelNotNegative"])
        XCTAssertEqual(Gauge.brokenInvariants(in: .init(level: -1, max: 3)).map(\.message), ["levelNotNegative does not hold"])
    }

    func testAFeatureWithoutInvariantsHasNone() {
        XCTAssertEqual(FeatureDescriptor(Probe.self).invariants, [])
        XCTAssertEqual(Probe.brokenInvariants(in: Probe.initialState), [])
    }

    func testTheDescriptorNamesThemAndASystemChecksThemWhenAsked() throws {
        let descriptor = FeatureDescriptor(Gauge.self)
        XCTAssertEqual(descriptor.invariants, ["levelWithinMax", "levelNotNegative"])
        XCTAssertTrue(JSONWriter.string(descriptor.jsonValue).contains(#""invariants":["levelWithinMax","levelNotNegative"]"#))
        let system = try descriptor.makeSystem()
        var out: [UInt8] = []
        system.writeBrokenInvariants { out = Array($0) }
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "[]")
        for _ in 0..<4 {
            _ = try Array(#""raise""#.utf8).withUnsafeBytes { try system.send($0) }
        }
        out = []
        system.writeBrokenInvariants { out = Array($0) }
        XCTAssertEqual(String(decoding: out, as: UTF8.self), #"[{"name":"levelWithinMax","message":"level 4 above max 3"}]"#)
    }

    func testAPulledBackInvariantIsNamedUnderItsPrefixAndHoldsWhileTheChildIsAbsent() {
        let pulled = Gauge.invariants(prefix: "gauge", { (parent: Gauge.State?) in parent })
        XCTAssertEqual(pulled.map(\.name), ["gauge.levelWithinMax", "gauge.levelNotNegative"])
        XCTAssertNil(pulled[0].violation(in: nil))
        XCTAssertEqual(pulled[0].violation(in: .init(level: 5, max: 3)), "level 5 above max 3")
    }

    func testTestStoreFailsOnTheInputThatBreaksAnInvariant() {
        var failures: [String] = []
        let store = TestStore<Gauge>()
        store.reportFailure = { message, _, _ in failures.append(message) }
        for level in 1...3 { store.send(.raise) { $0.level = level } }
        XCTAssertEqual(failures, [])
        store.send(.raise) { $0.level = 4 }
        XCTAssertEqual(failures, ["send: invariant levelWithinMax is broken: level 4 above max 3"])
    }
}
