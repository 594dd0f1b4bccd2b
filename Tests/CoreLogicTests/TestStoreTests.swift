import XCTest
import CoreLogic
import CoreLogicTesting

/// TestStore (CoreLogicTesting) fails a test on every unasserted change: a state that
/// differs from the one expected, a command not claimed before the next input or at the
/// end, a claim that does not match.
final class TestStoreTests: XCTestCase {
    /// A store whose failures are collected instead of failing this test.
    private func store(_ failures: @escaping (String) -> Void) -> TestStore<Probe> {
        let store = TestStore<Probe>()
        store.reportFailure = { message, _, _ in failures(message) }
        return store
    }

    func testAFullyAssertedRunReportsNothing() {
        var failures: [String] = []
        let store = store { failures.append($0) }
        store.send(.setFirst(value: 1)) { $0.first = 1 }
        let first = store.started("first", 1)
        store.send(.setFirst(value: 2)) { $0.first = 2 }
        store.cancelled(first)
        store.started("first", 2)
        store.deliverStale(first, .note(text: "late"))
        store.finish()
        XCTAssertEqual(failures, [])
        XCTAssertEqual(store.state.first, 2)
    }

    func testAStateChangeThatWasNotAssertedFails() {
        var failures: [String] = []
        let store = store { failures.append($0) }
        store.send(.note(text: "a"))
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(failures[0].contains("the state is not the one expected"), failures[0])
        XCTAssertTrue(failures[0].contains(#""log":["a"]"#), failures[0])
    }

    func testACommandNotClaimedBeforeTheNextInputFails() {
        var failures: [String] = []
        let store = store { failures.append($0) }
        store.send(.setFirst(value: 1)) { $0.first = 1 }
        store.send(.note(text: "x")) { $0.log = ["x"] }
        XCTAssertEqual(failures, ["1 effect command(s) not asserted before send: start 1 first 1"])
    }

    func testACommandNotClaimedAtTheEndFails() {
        var failures: [String] = []
        let store = store { failures.append($0) }
        store.send(.setSet(values: [3, 4])) { $0.set = [3, 4] }
        store.started("set", 3)
        store.finish()
        XCTAssertEqual(failures, ["1 effect command(s) not asserted before finish: start 2 set 4"])
    }

    func testAClaimThatDoesNotMatchFails() {
        var failures: [String] = []
        let store = store { failures.append($0) }
        store.send(.setFirst(value: 1)) { $0.first = 1 }
        store.started("first", 2)
        XCTAssertEqual(failures, ["expected the start of first 2; the next command is start 1 first 1"])
    }

    func testDeliveringToAnEffectThatIsNotRunningMustBeAssertedAsStale() {
        var failures: [String] = []
        let store = store { failures.append($0) }
        store.deliver(7, .note(text: "x")) { $0.log = ["x"] }
        XCTAssertEqual(failures, ["deliver to effect 7: expected the input to be applied, it was stale"])
    }
}
