import XCTest
@testable import CoreLogic
@testable import Cookbook

final class DeltaListTests: XCTestCase {
    typealias Item = DeltaList.Item
    let a = Item(id: "a", title: "A"), b = Item(id: "b", title: "B"), c = Item(id: "c", title: "C")
    let d = Item(id: "d", title: "D")

    func ids(_ system: System<DeltaList>) -> [String] { system.state.items.map(\.id) }

    func testTheSubscriptionStartsBeforeTheInitialLoad() {
        let system = System<DeltaList>()
        XCTAssertEqual(system.initialBatch.effects, [.start(1, "deltas"), .start(2, "loadInitial")])
    }

    func testDeltasBeforeTheInitialItemsAreBufferedInArrivalOrder() throws {
        let system = System<DeltaList>()
        _ = try system.deliver(1, .add(item: d, index: nil))
        _ = try system.deliver(1, .remove(id: "a"))
        XCTAssertEqual(system.state.items, [])
        XCTAssertEqual(system.state.buffered, [.add(item: d, index: nil), .remove(id: "a")])
    }

    func testBufferedDeltasApplyAfterTheInitialItemsInOrder() throws {
        let system = System<DeltaList>()
        _ = try system.deliver(1, .add(item: d, index: 0))
        _ = try system.deliver(1, .move(id: "a", index: 2))
        _ = try system.deliver(1, .remove(id: "b"))
        let outcome = try system.deliver(2, .initialLoaded(items: [a, b, c]))
        // [a b c] + add d at 0 -> [d a b c]; move a to 2 -> [d b a c]; remove b -> [d a c]
        XCTAssertEqual(ids(system), ["d", "a", "c"])
        XCTAssertEqual(system.state.buffered, [])
        XCTAssertEqual(system.state.phase, .ready)
        XCTAssertEqual(outcome.effects, [.cancel(2)])
    }

    func testDeltasAfterTheInitialItemsApplyAtOnce() throws {
        let system = System<DeltaList>()
        _ = try system.deliver(2, .initialLoaded(items: [a, b]))
        _ = try system.deliver(1, .add(item: c, index: 1))
        XCTAssertEqual(ids(system), ["a", "c", "b"])
        _ = try system.deliver(1, .move(id: "b", index: 0))
        XCTAssertEqual(ids(system), ["b", "a", "c"])
        _ = try system.deliver(1, .remove(id: "a"))
        XCTAssertEqual(ids(system), ["b", "c"])
        XCTAssertEqual(system.state.buffered, [])
    }

    func testInterleavedDeltasLoseNothingAndApplyNothingTwice() throws {
        let system = System<DeltaList>()
        var model: [Item] = [a, b]
        var early: [DeltaList.Delta] = []
        for n in 0..<20 {
            let item = Item(id: "n\(n)", title: "\(n)")
            early.append(.add(item: item, index: n % 3))
            _ = try system.deliver(1, .add(item: item, index: n % 3))
        }
        _ = try system.deliver(2, .initialLoaded(items: model))
        for delta in early { DeltaList.apply(delta, to: &model) }
        for n in 0..<20 where n % 2 == 0 {
            _ = try system.deliver(1, .remove(id: "n\(n)"))
            model.removeAll { $0.id == "n\(n)" }
        }
        XCTAssertEqual(system.state.items, model)
        XCTAssertEqual(system.state.items.count, 12)
        XCTAssertEqual(Set(system.state.items.map(\.id)).count, 12)
    }

    func testADeltaTheInitialItemsAlreadyContainIsHarmless() throws {
        let system = System<DeltaList>()
        _ = try system.deliver(1, .add(item: c, index: nil))
        _ = try system.deliver(1, .remove(id: "z"))
        _ = try system.deliver(2, .initialLoaded(items: [a, b, c]))
        XCTAssertEqual(ids(system), ["a", "b", "c"])
    }

    func testIndexesAreClampedToTheList() {
        var items = [a, b]
        DeltaList.apply(.add(item: c, index: 99), to: &items)
        DeltaList.apply(.add(item: d, index: -5), to: &items)
        XCTAssertEqual(items.map(\.id), ["d", "a", "b", "c"])
        DeltaList.apply(.move(id: "d", index: 99), to: &items)
        XCTAssertEqual(items.map(\.id), ["a", "b", "c", "d"])
        DeltaList.apply(.move(id: "zz", index: 0), to: &items)
        XCTAssertEqual(items.map(\.id), ["a", "b", "c", "d"])
    }

    func testAFailedInitialLoadKeepsTheBufferAndRetryLoadsAgain() throws {
        let system = System<DeltaList>()
        _ = try system.deliver(1, .add(item: c, index: nil))
        XCTAssertEqual(try system.deliver(2, .initialFailed(message: "offline")).effects, [.cancel(2)])
        XCTAssertEqual(system.state.buffered.count, 1)
        _ = try system.deliver(1, .remove(id: "a"))
        XCTAssertEqual(try system.send(.retry).effects, [.start(3, "loadInitial")])
        _ = try system.deliver(3, .initialLoaded(items: [a, b]))
        XCTAssertEqual(ids(system), ["b", "c"])
    }

    func testTheSubscriptionRunsForTheWholeLife() throws {
        let system = System<DeltaList>()
        _ = try system.deliver(2, .initialLoaded(items: [a]))
        _ = try system.deliver(1, .remove(id: "a"))
        XCTAssertEqual(system.running, [.start(1, "deltas")])
    }

    func testASecondInitialLoadResultIsIgnored() throws {
        var state = DeltaList.State(phase: .ready, items: [a])
        DeltaList.reduce(&state, .initialLoaded(items: [b]))
        XCTAssertEqual(state.items, [a])
    }
}
