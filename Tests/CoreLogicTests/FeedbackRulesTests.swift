import XCTest
@testable import CoreLogic

/// docs/contract.md §2: which effects must be running, and the commands that say so.
final class FeedbackRulesTests: XCTestCase {
    func testReactNilStartsNothing() throws {
        let system = System<Probe>()
        XCTAssertEqual(system.initialBatch.commands.count, 0)
        XCTAssertEqual(try system.send(.note(text: "x")).commands, [])
    }

    func testReactValueStartsAnEffectWithTheFirstId() throws {
        let system = System<Probe>()
        XCTAssertEqual(try system.send(.setFirst(value: 7)).commands, [.start(1, "first", 7)])
        XCTAssertEqual(system.runningEffects.map(\.id), [1])
    }

    func testReactEqualRequestChangesNothingWhileRunning() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 7))
        XCTAssertEqual(try system.send(.setFirst(value: 7)).commands, [])
        XCTAssertTrue(system.isRunning(1))
    }

    func testReactEqualRequestChangesNothingAfterCompletion() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 7))
        XCTAssertEqual(try system.complete(1).commands, [])
        XCTAssertFalse(system.isRunning(1))
        XCTAssertEqual(try system.send(.note(text: "again")).commands, [])
        XCTAssertEqual(try system.send(.setFirst(value: 7)).commands, [])
    }

    func testReactDifferentRequestCancelsThenStartsLatestWins() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 1))
        XCTAssertEqual(try system.send(.setFirst(value: 2)).commands, [.cancel(1), .start(2, "first", 2)])
    }

    func testReactDifferentRequestAfterCompletionStartsWithoutCancel() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 1))
        _ = try system.complete(1)
        XCTAssertEqual(try system.send(.setFirst(value: 2)).commands, [.start(2, "first", 2)])
    }

    func testReactNilCancelsTheRunningEffect() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 1))
        XCTAssertEqual(try system.send(.setFirst(value: nil)).commands, [.cancel(1)])
        XCTAssertEqual(system.runningEffects.count, 0)
    }

    func testReactEqualRequestRunsAgainOnlyAfterPassingThroughNil() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 1))
        _ = try system.complete(1)
        XCTAssertEqual(try system.send(.setFirst(value: nil)).commands, [])
        XCTAssertEqual(try system.send(.setFirst(value: 1)).commands, [.start(2, "first", 1)])
    }

    func testReactSetStartsAppearingCancelsDisappearingKeepsStaying() throws {
        let system = System<Probe>()
        XCTAssertEqual(try system.send(.setSet(values: [10, 20])).commands,
                       [.start(1, "set", 10), .start(2, "set", 20)])
        XCTAssertEqual(try system.send(.setSet(values: [20, 30])).commands,
                       [.cancel(1), .start(3, "set", 30)])
        XCTAssertEqual(system.runningEffects.map(\.id), [2, 3])
    }

    func testReactSetStartsFollowTheQueryOrder() throws {
        let system = System<Probe>()
        XCTAssertEqual(try system.send(.setSet(values: [3, 1, 2])).commands,
                       [.start(1, "set", 3), .start(2, "set", 1), .start(3, "set", 2)])
    }

    func testReactSetCompletedRequestThatStaysIsNotRestartedNorCancelled() throws {
        let system = System<Probe>()
        _ = try system.send(.setSet(values: [1, 2]))
        _ = try system.complete(1)
        XCTAssertEqual(try system.send(.setSet(values: [2, 1])).commands, [])
        XCTAssertEqual(try system.send(.setSet(values: [2])).commands, [])
        XCTAssertEqual(try system.send(.setSet(values: [2, 1])).commands, [.start(3, "set", 1)])
    }

    func testReactSetDuplicateRequestsStartOnce() throws {
        let system = System<Probe>()
        XCTAssertEqual(try system.send(.setSet(values: [5, 5])).commands, [.start(1, "set", 5)])
    }

    func testStartsFollowFeedbackDeclarationOrder() {
        let system = System<Probe>(state: Probe.State(first: 1, second: 1, set: [1]))
        XCTAssertEqual(system.initialBatch.commands.map(Command.init),
                       [.start(1, "first", 1), .start(2, "second", 1), .start(3, "set", 1)])
    }

    func testCancelsOfAllFeedbacksPrecedeStartsInOneStep() throws {
        enum Both: Feature {
            typealias State = Int
            typealias Event = Int
            static let name = "both"
            static var initialState: Int { 0 }
            static func reduce(_ state: inout Int, _ event: Int) { state = event }
            static var feedbacks: [Feedback<Int>] {
                [.react("a") { $0 }, .reactSet("b") { [$0] }]
            }
        }
        let system = System<Both>()
        XCTAssertEqual(system.initialBatch.commands.map(Command.init), [.start(1, "a", 0), .start(2, "b", 0)])
        XCTAssertEqual(try system.send(5).commands, [.cancel(1), .cancel(2), .start(3, "a", 5), .start(4, "b", 5)])
    }

    func testEffectIdsStartAtOneIncreaseByOneAndAreNeverReused() throws {
        let system = System<Probe>()
        var seen: [UInt64] = []
        for value in 1...50 {
            for case .start(let id, _, _) in try system.send(.setFirst(value: value)).commands { seen.append(id) }
        }
        XCTAssertEqual(seen, Array(1...50))
    }

    func testInitialStateThatAsksForEffectsStartsThemAtCreation() {
        let system = System<Probe>(state: Probe.State(first: 4))
        XCTAssertEqual(system.initialBatch.commands.map(Command.init), [.start(1, "first", 4)])
        XCTAssertEqual(system.initialBatch.steps, 0)
    }

    func testRestoredSystemHandsOutIdsFromItsFirstEffectId() {
        let system = System<Probe>(state: Probe.State(first: 4), firstEffectID: 42)
        XCTAssertEqual(system.initialBatch.commands.map(Command.init), [.start(42, "first", 4)])
    }
}
