import XCTest
@testable import CoreLogic
@testable import Cookbook

/// The cookbook features as hosts see them: through JSON and the catalog.
final class CookbookJSONTests: XCTestCase {
    func json<T: Encodable>(_ value: T) throws -> String { try JSONCoding.encodeToString(value) }

    func testEveryCookbookFeatureIsInTheCatalogWithItsEventNames() throws {
        let expected: [String: [String]] = [
            "playcatch": ["humanThrows", "machineThrows"],
            "pharmacies": ["listLoaded", "loadFailed", "retry", "showMap", "closeMap", "typeahead", "add", "added",
                           "addFailed", "delete", "deleted", "deleteFailed", "errorDismissed", "showDirections",
                           "closeDirections", "select", "dismiss"],
            "list": ["initialLoaded", "initialFailed", "retry", "add", "remove", "move"],
            "profile": ["setName", "setEmail", "setAvatar", "upgradeToPremium", "savePressed", "saved", "saveFailed"],
            "share": ["filesChanged", "metadataChanged", "shareTapped", "shareFinished", "shareFailed"],
            "typeahead": ["textChanged", "debounceElapsed", "resultsLoaded", "searchFailed"],
            "signup": ["nameChanged", "emailChanged", "passwordChanged", "submitTapped", "accepted", "rejected", "failed"],
        ]
        for (name, events) in expected {
            XCTAssertEqual(try catalog.named(name).events, events, name)
        }
    }

    func testPlaycatchEventsAreSimpleStringsAndTheTimerRequestIsSeconds() throws {
        XCTAssertEqual(try JSONCoding.decode(Playcatch.Event.self, from: "\"humanThrows\""), .humanThrows)
        XCTAssertEqual(try JSONCoding.decode(Playcatch.Event.self, from: "\"machineThrows\""), .machineThrows)
        XCTAssertEqual(try json(Playcatch.TimerRequest(seconds: 1)), #"{"seconds":1}"#)
        XCTAssertEqual(try json(Playcatch.State()), #"{"ball":"human","throwCount":0}"#)
    }

    func testPharmaciesStateAndRouteShapes() throws {
        let boots = Pharmacies.Pharmacy(id: "1", name: "Boots", address: "1 High Street")
        let state = Pharmacies.State(pharmacies: [], phase: .dismissing(selected: boots, from: .loaded(error: nil)))
        XCTAssertEqual(try json(state),
            #"{"pharmacies":[],"phase":{"dismissing":{"selected":{"id":"1","name":"Boots","address":"1 High Street"},"from":{"loaded":{}}}}}"#)
        XCTAssertEqual(try JSONCoding.decode(Pharmacies.State.self, from: try json(state)), state)
        XCTAssertEqual(try json(Pharmacies.Route.error(message: "offline")), #"{"error":{"message":"offline"}}"#)
        XCTAssertEqual(try json(Pharmacies.LoadRequest()), "{}")
        XCTAssertEqual(try JSONCoding.decode(Pharmacies.Event.self, from: #"{"typeahead":{"event":{"textChanged":{"text":"bo"}}}}"#),
                       .typeahead(event: .textChanged(text: "bo")))
    }

    func testTypeaheadRequestsCarryTheTextAndTheDelay() throws {
        XCTAssertEqual(try json(Typeahead.DebounceRequest(text: "dro", milliseconds: 300)), #"{"text":"dro","milliseconds":300}"#)
        XCTAssertEqual(try json(Typeahead.SearchRequest(query: "drop")), #"{"query":"drop"}"#)
    }

    func testEveryCookbookFeatureRunsThroughJSON() throws {
        let steps: [(String, [String])] = [
            ("playcatch", ["\"humanThrows\""]),
            ("pharmacies", ["\"dismiss\""]),
            ("list", [#"{"add":{"item":{"id":"a","title":"A"}}}"#]),
            ("profile", [#"{"setName":{"name":"Ada"}}"#, #"{"setAvatar":{}}"#, "\"upgradeToPremium\""]),
            ("share", [#"{"filesChanged":{"files":["a.jpg"]}}"#, "\"shareTapped\""]),
            ("typeahead", [#"{"textChanged":{"text":"d"}}"#]),
            ("signup", [#"{"rejected":{"attempt":1,"errors":[{"field":"email","message":"taken"}]}}"#]),
        ]
        for (name, events) in steps {
            let system = try catalog.named(name).makeSystem()
            for event in events {
                let bytes = Array(event.utf8)
                let status = try bytes.withUnsafeBytes { try system.send($0) }
                XCTAssertEqual(status, .ok, "\(name) \(event)")
            }
            var state: [UInt8] = []
            try system.writeState { state = Array($0) }
            XCTAssertFalse(state.isEmpty, name)
        }
    }
}
