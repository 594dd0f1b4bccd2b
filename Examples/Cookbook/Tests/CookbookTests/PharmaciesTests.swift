import XCTest
@testable import CoreLogic
@testable import Cookbook

/// One test per arrow of the diagram in docs/cookbook.md, then the ignored events,
/// the navigation query, and the embedded map search.
final class PharmaciesTests: XCTestCase {
    typealias Pharmacy = Pharmacies.Pharmacy
    typealias State = Pharmacies.State
    let boots = Pharmacy(id: "1", name: "Boots", address: "1 High Street")
    let lloyds = Pharmacy(id: "2", name: "Lloyds", address: "2 Low Road")
    let superdrug = Pharmacy(id: "3", name: "Superdrug", address: "3 Mid Lane")

    var list: [Pharmacy] { [boots, lloyds] }

    /// A system whose list is loaded (the load effect, id 1, delivered and completed).
    func loadedSystem() throws -> System<Pharmacies> {
        let system = System<Pharmacies>()
        _ = try system.deliver(1, .listLoaded(pharmacies: list))
        _ = try system.complete(1)
        return system
    }

    func route(_ system: System<Pharmacies>) -> Pharmacies.Route { Pharmacies.route(of: system.state) }

    func query<T>(_ name: String, _ state: State, as type: T.Type) -> T? {
        Pharmacies.queries.first { $0.name == name }?.evaluate(state) as? T
    }

    // MARK: Arrows

    func testStartLoadsTheSavedList() {
        let system = System<Pharmacies>()
        XCTAssertEqual(system.state.phase, .loading)
        XCTAssertEqual(system.initialBatch.effects, [.start(1, "load")])
        XCTAssertEqual(route(system), .list)
    }

    func testLoadingToLoadedWhenTheListArrives() throws {
        let system = System<Pharmacies>()
        let outcome = try system.deliver(1, .listLoaded(pharmacies: list))
        XCTAssertEqual(outcome.batch?.state, State(pharmacies: list, phase: .loaded(error: nil)))
        XCTAssertEqual(outcome.effects, [.cancel(1)])
    }

    func testLoadingToLoadingFailedWhenTheLoadFails() throws {
        let system = System<Pharmacies>()
        let outcome = try system.deliver(1, .loadFailed(message: "offline"))
        XCTAssertEqual(outcome.batch?.state.phase, .loadingFailed(message: "offline"))
        XCTAssertEqual(outcome.effects, [.cancel(1)])
        XCTAssertEqual(route(system), .list)
    }

    func testLoadingFailedToLoadingOnRetryLoadsAgain() throws {
        let system = System<Pharmacies>()
        _ = try system.deliver(1, .loadFailed(message: "offline"))
        let outcome = try system.send(.retry)
        XCTAssertEqual(outcome.batch?.state.phase, .loading)
        XCTAssertEqual(outcome.effects, [.start(2, "load")])
    }

    func testLoadedToSearchingShowsTheMap() throws {
        let system = try loadedSystem()
        let outcome = try system.send(.showMap)
        XCTAssertEqual(outcome.batch?.state.phase, .searching(search: Typeahead.State()))
        XCTAssertEqual(outcome.effects, [])
        XCTAssertEqual(route(system), .map)
    }

    func testSearchingToLoadedWhenTheMapCloses() throws {
        let system = try loadedSystem()
        _ = try system.send(.showMap)
        XCTAssertEqual(try system.send(.closeMap).batch?.state, State(pharmacies: list, phase: .loaded(error: nil)))
        XCTAssertEqual(route(system), .list)
    }

    func testSearchingToSearchingForEveryMapSearchEvent() throws {
        let system = try loadedSystem()
        _ = try system.send(.showMap)
        let outcome = try system.send(.typeahead(event: .textChanged(text: "bo")))
        XCTAssertEqual(outcome.batch?.state.search?.text, "bo")
        XCTAssertEqual(outcome.effects, [.start(2, "typeahead.debounce")])
        XCTAssertEqual(route(system), .map)
    }

    func testSearchingToAddingSavesTheChosenPharmacy() throws {
        let system = try loadedSystem()
        _ = try system.send(.showMap)
        let outcome = try system.send(.add(pharmacy: superdrug))
        XCTAssertEqual(outcome.batch?.state.phase, .adding(pharmacy: superdrug))
        XCTAssertEqual(outcome.effects, [.start(2, "add")])
        XCTAssertEqual(outcome.request(2, as: Pharmacies.PharmacyRequest.self), .init(pharmacy: superdrug))
        XCTAssertEqual(route(system), .list)
    }

    func testAddingAPharmacyAlreadyInTheListIsIgnored() throws {
        let system = try loadedSystem()
        _ = try system.send(.showMap)
        let before = system.state
        let outcome = try system.send(.add(pharmacy: lloyds))
        XCTAssertEqual(outcome.batch?.state, before)
        XCTAssertEqual(outcome.effects, [])
    }

    func testAddingToLoadedAppendsThePharmacyWhenSaved() throws {
        let system = try loadedSystem()
        _ = try system.sendAll([.showMap, .add(pharmacy: superdrug)])
        let outcome = try system.deliver(2, .added(pharmacy: superdrug))
        XCTAssertEqual(outcome.batch?.state, State(pharmacies: list + [superdrug], phase: .loaded(error: nil)))
        XCTAssertEqual(outcome.effects, [.cancel(2)])
    }

    func testAddingToLoadedWithTheErrorAndTheListUnchangedWhenSavingFails() throws {
        let system = try loadedSystem()
        _ = try system.sendAll([.showMap, .add(pharmacy: superdrug)])
        let outcome = try system.deliver(2, .addFailed(message: "server error"))
        XCTAssertEqual(outcome.batch?.state, State(pharmacies: list, phase: .loaded(error: "server error")))
        XCTAssertEqual(route(system), .error(message: "server error"))
    }

    func testLoadedToDeletingRemovesThePharmacy() throws {
        let system = try loadedSystem()
        let outcome = try system.send(.delete(pharmacy: boots))
        XCTAssertEqual(outcome.batch?.state.phase, .deleting(pharmacy: boots))
        XCTAssertEqual(outcome.effects, [.start(2, "delete")])
        XCTAssertEqual(outcome.request(2, as: Pharmacies.PharmacyRequest.self), .init(pharmacy: boots))
    }

    func testDeletingToLoadedWithoutThePharmacyWhenRemoved() throws {
        let system = try loadedSystem()
        _ = try system.send(.delete(pharmacy: boots))
        let outcome = try system.deliver(2, .deleted(pharmacy: boots))
        XCTAssertEqual(outcome.batch?.state, State(pharmacies: [lloyds], phase: .loaded(error: nil)))
        XCTAssertEqual(outcome.effects, [.cancel(2)])
    }

    func testDeletingToLoadedWithTheErrorAndTheListUnchangedWhenRemovingFails() throws {
        let system = try loadedSystem()
        _ = try system.send(.delete(pharmacy: boots))
        let outcome = try system.deliver(2, .deleteFailed(message: "server error"))
        XCTAssertEqual(outcome.batch?.state, State(pharmacies: list, phase: .loaded(error: "server error")))
        XCTAssertEqual(route(system), .error(message: "server error"))
    }

    func testTheErrorIsShownOnceThenDismissed() throws {
        let system = try loadedSystem()
        _ = try system.send(.delete(pharmacy: boots))
        _ = try system.deliver(2, .deleteFailed(message: "server error"))
        XCTAssertEqual(try system.send(.errorDismissed).batch?.state.phase, .loaded(error: nil))
        XCTAssertEqual(route(system), .list)
    }

    func testLeavingLoadedClearsTheErrorSoItIsNotShownAgain() throws {
        let system = try loadedSystem()
        _ = try system.send(.delete(pharmacy: boots))
        _ = try system.deliver(2, .deleteFailed(message: "server error"))
        _ = try system.sendAll([.showMap, .closeMap])
        XCTAssertEqual(route(system), .list)
    }

    func testLoadedToShowingDirections() throws {
        let system = try loadedSystem()
        XCTAssertEqual(try system.send(.showDirections(pharmacy: lloyds)).batch?.state.phase,
                       .showingDirections(pharmacy: lloyds))
        XCTAssertEqual(route(system), .directions(pharmacy: lloyds))
    }

    func testShowingDirectionsToLoadedWhenClosed() throws {
        let system = try loadedSystem()
        _ = try system.send(.showDirections(pharmacy: lloyds))
        XCTAssertEqual(try system.send(.closeDirections).batch?.state.phase, .loaded(error: nil))
        XCTAssertEqual(route(system), .list)
    }

    func testLoadedToDismissingWithTheSelectedPharmacy() throws {
        let system = try loadedSystem()
        XCTAssertEqual(try system.send(.select(pharmacy: boots)).batch?.state.phase,
                       .dismissing(selected: boots, from: .loaded(error: nil)))
        XCTAssertEqual(route(system), .dismissed(selected: boots))
    }

    func testShowingDirectionsToDismissingWithTheSelectedPharmacy() throws {
        let system = try loadedSystem()
        _ = try system.send(.showDirections(pharmacy: lloyds))
        XCTAssertEqual(try system.send(.select(pharmacy: lloyds)).batch?.state.phase,
                       .dismissing(selected: lloyds, from: .showingDirections(pharmacy: lloyds)))
        XCTAssertEqual(route(system), .dismissed(selected: lloyds))
    }

    func testDismissWithoutSelectionFromEveryPhaseThatAllowsIt() throws {
        let searching = try loadedSystem()
        _ = try searching.send(.showMap)
        let directions = try loadedSystem()
        _ = try directions.send(.showDirections(pharmacy: boots))
        let failed = System<Pharmacies>()
        _ = try failed.deliver(1, .loadFailed(message: "offline"))
        let cases: [(System<Pharmacies>, Pharmacies.Phase)] = [
            (System<Pharmacies>(), .loading),
            (failed, .loadingFailed(message: "offline")),
            (try loadedSystem(), .loaded(error: nil)),
            (searching, .searching(search: Typeahead.State())),
            (directions, .showingDirections(pharmacy: boots)),
        ]
        for (system, from) in cases {
            XCTAssertEqual(try system.send(.dismiss).batch?.state.phase, .dismissing(selected: nil, from: from))
            XCTAssertEqual(route(system), .dismissed(selected: nil))
        }
    }

    func testDismissingWhileLoadingCancelsTheLoad() throws {
        let system = System<Pharmacies>()
        XCTAssertEqual(try system.send(.dismiss).effects, [.cancel(1)])
        XCTAssertTrue(try system.deliver(1, .listLoaded(pharmacies: list)).isStale)
    }

    // MARK: Ignored events

    func testDismissAndSelectAreIgnoredWhileAWriteIsInFlight() throws {
        let system = try loadedSystem()
        _ = try system.send(.delete(pharmacy: boots))
        let before = system.state
        XCTAssertEqual(try system.send(.dismiss).batch?.state, before)
        XCTAssertEqual(try system.send(.select(pharmacy: lloyds)).batch?.state, before)
        XCTAssertEqual(system.running, [.start(2, "delete")])
    }

    func testEventsThatDoNotFitThePhaseAreIgnored() throws {
        let system = try loadedSystem()
        let before = system.state
        let misplaced: [Pharmacies.Event] = [
            .retry, .closeMap, .closeDirections, .errorDismissed, .add(pharmacy: superdrug),
            .added(pharmacy: superdrug), .deleted(pharmacy: boots), .listLoaded(pharmacies: []),
            .typeahead(event: .textChanged(text: "x")), .delete(pharmacy: superdrug),
            .showDirections(pharmacy: superdrug), .select(pharmacy: superdrug),
        ]
        XCTAssertEqual(try system.sendAll(misplaced), [])
        XCTAssertEqual(system.state, before)
    }

    func testPharmaciesAreToldApartByIdSoAnOlderCopyActsOnTheSavedOne() throws {
        let system = try loadedSystem()
        let renamed = Pharmacy(id: boots.id, name: "Boots (old name)", address: boots.address)
        XCTAssertEqual(try system.send(.delete(pharmacy: renamed)).batch?.state.phase, .deleting(pharmacy: boots))
        _ = try system.deliver(2, .deleted(pharmacy: renamed))
        _ = try system.send(.showMap)
        XCTAssertEqual(try system.send(.add(pharmacy: lloyds)).effects, [], "same id as a saved one")
        XCTAssertEqual(system.state.pharmacies, [lloyds])
    }

    // MARK: Queries

    func testNavigationIsAQueryOfTheState() throws {
        let system = try loadedSystem()
        _ = try system.send(.showMap)
        XCTAssertEqual(query("route", system.state, as: Pharmacies.Route.self), .map)
        XCTAssertEqual(query("isBusy", system.state, as: Bool.self), false)
        XCTAssertEqual(query("isBusy", State(), as: Bool.self), true)
    }

    // MARK: The embedded map search

    func testTheMapSearchEffectsAreNamespacedUnderTypeahead() throws {
        XCTAssertEqual(Pharmacies.feedbacks.map(\.name), ["load", "add", "delete", "typeahead.debounce", "typeahead.search"])
        let system = try loadedSystem()
        _ = try system.send(.showMap)
        _ = try system.send(.typeahead(event: .textChanged(text: "boots")))
        let outcome = try system.deliver(2, .typeahead(event: .debounceElapsed(text: "boots")))
        XCTAssertEqual(outcome.effects, [.cancel(2), .start(3, "typeahead.search")])
        XCTAssertEqual(outcome.request(3, as: Typeahead.SearchRequest.self), .init(query: "boots"))
    }

    func testRemovingTheChildStateCancelsEveryChildEffect() throws {
        let system = try loadedSystem()
        _ = try system.sendAll([.showMap, .typeahead(event: .textChanged(text: "boots"))])
        _ = try system.deliver(2, .typeahead(event: .debounceElapsed(text: "boots")))
        _ = try system.send(.typeahead(event: .textChanged(text: "bootsx")))
        XCTAssertEqual(system.running, [.start(3, "typeahead.search"), .start(4, "typeahead.debounce")])
        XCTAssertEqual(try system.send(.closeMap).effects, [.cancel(4), .cancel(3)])
        XCTAssertEqual(system.runningEffects.count, 0)
        let matches = [Typeahead.Match(id: "9", title: "Boots")]
        XCTAssertTrue(try system.deliver(3, .typeahead(event: .resultsLoaded(query: "boots", matches: matches))).isStale)
    }

    func testDismissingFromTheMapCancelsTheMapSearch() throws {
        let system = try loadedSystem()
        _ = try system.sendAll([.showMap, .typeahead(event: .textChanged(text: "b"))])
        XCTAssertEqual(try system.send(.dismiss).effects, [.cancel(2)])
    }

    func testAddingFromTheMapCancelsTheMapSearchAndStartsTheAdd() throws {
        let system = try loadedSystem()
        _ = try system.sendAll([.showMap, .typeahead(event: .textChanged(text: "b"))])
        XCTAssertEqual(try system.send(.add(pharmacy: superdrug)).effects, [.cancel(2), .start(3, "add")])
    }

    func testReopeningTheMapStartsAFreshSearch() throws {
        let system = try loadedSystem()
        _ = try system.sendAll([.showMap, .typeahead(event: .textChanged(text: "boots"))])
        _ = try system.deliver(2, .typeahead(event: .debounceElapsed(text: "boots")))
        _ = try system.sendAll([.closeMap, .showMap])
        XCTAssertEqual(system.state.search, Typeahead.State())
        _ = try system.send(.typeahead(event: .textChanged(text: "boots")))
        let outcome = try system.deliver(4, .typeahead(event: .debounceElapsed(text: "boots")))
        XCTAssertEqual(outcome.effects, [.cancel(4), .start(5, "typeahead.search")])
    }

    func testTheMapSearchQueriesAreAnsweredFromTheChildOrItsInitialState() throws {
        XCTAssertEqual(Pharmacies.queries.map(\.name),
                       ["route", "pharmacies", "isBusy", "typeahead.results", "typeahead.isSearching",
                        "typeahead.isWaitingForTyping"])
        let matches = [Typeahead.Match(id: "9", title: "Boots")]
        let searching = State(pharmacies: list, phase: .searching(search: Typeahead.State(
            text: "boots", query: "boots", results: matches, resultsQuery: "boots")))
        XCTAssertEqual(query("typeahead.results", searching, as: [Typeahead.Match].self), matches)
        XCTAssertEqual(query("typeahead.results", State(), as: [Typeahead.Match].self), [])
    }
}
