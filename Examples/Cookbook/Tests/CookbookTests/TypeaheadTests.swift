import XCTest
@testable import CoreLogic
@testable import Cookbook

final class TypeaheadTests: XCTestCase {
    typealias DebounceRequest = Typeahead.DebounceRequest
    typealias SearchRequest = Typeahead.SearchRequest
    let drop = [Typeahead.Match(id: "1", title: "Dropbox")]

    /// Types `text` and lets its debounce fire; returns the commands of both steps.
    @discardableResult
    func typeAndWait(_ system: System<Typeahead>, _ text: String) throws -> [Effect] {
        var effects = try system.send(.textChanged(text: text)).effects
        if case .start(let timer, "debounce")? = effects.last {
            effects += try system.deliver(timer, .debounceElapsed(text: text)).effects
        }
        return effects
    }

    func testEachKeystrokeRestartsTheDebounceTimerWithTheNewText() throws {
        let system = System<Typeahead>()
        let first = try system.send(.textChanged(text: "d"))
        XCTAssertEqual(first.effects, [.start(1, "debounce")])
        XCTAssertEqual(first.request(1, as: DebounceRequest.self), DebounceRequest(text: "d", milliseconds: 300))
        let second = try system.send(.textChanged(text: "dr"))
        XCTAssertEqual(second.effects, [.cancel(1), .start(2, "debounce")])
        XCTAssertEqual(second.request(2, as: DebounceRequest.self), DebounceRequest(text: "dr", milliseconds: 300))
    }

    func testFastTypingSearchesOnlyTheLastQuery() throws {
        let system = System<Typeahead>()
        let log = CommandLog(system)
        for text in ["d", "dr", "dro", "drop"] { _ = try system.send(.textChanged(text: text)) }
        _ = try system.deliver(4, .debounceElapsed(text: "drop"))
        XCTAssertEqual(log.requests(of: "search", as: SearchRequest.self), [SearchRequest(query: "drop")])
        XCTAssertEqual(log.effects, [
            .start(1, "debounce"), .cancel(1), .start(2, "debounce"), .cancel(2), .start(3, "debounce"),
            .cancel(3), .start(4, "debounce"), .cancel(4), .start(5, "search"),
        ])
    }

    func testATimerOfAnOlderKeystrokeIsStale() throws {
        let system = System<Typeahead>()
        _ = try system.sendAll([.textChanged(text: "d"), .textChanged(text: "dr")])
        XCTAssertTrue(try system.deliver(1, .debounceElapsed(text: "d")).isStale)
        XCTAssertNil(system.state.query)
    }

    func testResultsOfTheCurrentQueryAreShown() throws {
        let system = System<Typeahead>()
        try typeAndWait(system, "drop")
        let state = try XCTUnwrap(try system.deliver(2, .resultsLoaded(query: "drop", matches: drop)).batch?.state)
        XCTAssertEqual(state.results, drop)
        XCTAssertEqual(state.resultsQuery, "drop")
        XCTAssertFalse(state.isSearching)
    }

    func testAResultForAnOlderQueryIsStaleBecauseItsSearchWasCancelled() throws {
        let system = System<Typeahead>()
        XCTAssertEqual(try typeAndWait(system, "dro"), [.start(1, "debounce"), .cancel(1), .start(2, "search")])
        XCTAssertEqual(try typeAndWait(system, "drop"), [.start(3, "debounce"), .cancel(3), .cancel(2), .start(4, "search")])
        XCTAssertTrue(try system.deliver(2, .resultsLoaded(query: "dro", matches: drop)).isStale)
        XCTAssertEqual(system.state.results, [])
        XCTAssertTrue(system.state.isSearching)
    }

    func testTheSameQueryIsNotSearchedTwice() throws {
        let system = System<Typeahead>()
        try typeAndWait(system, "drop")
        _ = try system.deliver(2, .resultsLoaded(query: "drop", matches: drop))
        _ = try system.complete(2)
        // Typing on and back to the searched text before the debounce fires.
        XCTAssertEqual(try system.sendAll([.textChanged(text: "drops"), .textChanged(text: "drop")]),
                       [.start(3, "debounce"), .cancel(3)])
        // The cancelled timer of "drops" can no longer fire.
        XCTAssertTrue(try system.deliver(3, .debounceElapsed(text: "drops")).isStale)
        XCTAssertEqual(system.state.results, drop)
        XCTAssertEqual(system.runningEffects.count, 0)
    }

    func testAnEqualDebouncedTextStartsNoSecondSearch() throws {
        var state = Typeahead.State(text: "drop", query: "drop", results: drop, resultsQuery: "drop")
        Typeahead.reduce(&state, .debounceElapsed(text: "drop"))
        XCTAssertEqual(state.query, "drop")
        let system = System<Typeahead>(state: state)
        XCTAssertEqual(system.initialBatch.effects, [.start(1, "search")])
        XCTAssertEqual(try system.send(.debounceElapsed(text: "drop")).effects, [])
    }

    func testAnEmptyTextClearsTheResultsWithoutARequest() throws {
        let system = System<Typeahead>()
        try typeAndWait(system, "drop")
        _ = try system.deliver(2, .resultsLoaded(query: "drop", matches: drop))
        let outcome = try system.send(.textChanged(text: ""))
        XCTAssertEqual(outcome.effects, [.cancel(2)])
        XCTAssertEqual(outcome.batch?.state, Typeahead.State())
    }

    func testClearingWhileTypingCancelsTheTimerAndSearchesNothing() throws {
        let system = System<Typeahead>()
        XCTAssertEqual(try system.sendAll([.textChanged(text: "dr"), .textChanged(text: "")]),
                       [.start(1, "debounce"), .cancel(1)])
        XCTAssertEqual(system.runningEffects.count, 0)
    }

    func testAResultCarryingAnotherQueryIsIgnored() throws {
        let system = System<Typeahead>()
        try typeAndWait(system, "drop")
        let before = system.state
        XCTAssertEqual(try system.deliver(2, .resultsLoaded(query: "dr", matches: drop)).batch?.state, before)
    }

    func testAFailedSearchIsShownAndNotRetriedUntilTheTextChanges() throws {
        let system = System<Typeahead>()
        try typeAndWait(system, "drop")
        let outcome = try system.deliver(2, .searchFailed(query: "drop", message: "offline"))
        XCTAssertEqual(outcome.batch?.state.failure, "offline")
        XCTAssertEqual(outcome.effects, [])
        XCTAssertEqual(try typeAndWait(system, "dropb"), [.start(3, "debounce"), .cancel(3), .cancel(2), .start(4, "search")])
        XCTAssertNil(system.state.failure)
    }
}
