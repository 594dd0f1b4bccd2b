import XCTest
@testable import CoreLogic
@testable import Cookbook

/// Requests and host strings are the same if and only if their JSON is identical
/// (include/corelogic.h, "JSON identity"; Feedback's documentation).
final class JSONIdentityTests: XCTestCase {
    private func kind(_ command: EffectCommand) -> String {
        if case .cancel = command { return "cancel" }
        return "start"
    }

    let nfc = "caf\u{E9}"
    let nfd = "cafe\u{301}"

    func testStringsThatSwiftCallsEqualButDifferInScalarsAreNotTheSame() throws {
        XCTAssertEqual(nfc, nfd) // canonical equivalence: what JSON identity must not use
        XCTAssertFalse(JSONIdentity.same(nfc, nfd))
        XCTAssertNotEqual(try JSONCoding.encode(nfc), try JSONCoding.encode(nfd))
        XCTAssertTrue(JSONIdentity.same(nfc, String(decoding: Array(nfc.utf8), as: UTF8.self)))
    }

    func testRequestsCompareByTheirJSON() {
        struct Request: Codable, Hashable { var url: String; var seconds: Double }
        let a = Request(url: nfc, seconds: 1), b = Request(url: nfd, seconds: 1)
        XCTAssertEqual(a, b)
        XCTAssertFalse(JSONIdentity.same(a, b))
        // Equal JSON from separately built strings (not bit-identical): the same.
        let long = String(repeating: "x", count: 40)
        let c = Request(url: long + "y", seconds: 1), d = Request(url: String(long) + "y", seconds: 1)
        XCTAssertTrue(JSONIdentity.same(c, d))
        // 0.0 and -0.0 are == but write different JSON.
        XCTAssertFalse(JSONIdentity.same(Request(url: "u", seconds: 0), Request(url: "u", seconds: -0.0)))
        XCTAssertTrue(JSONIdentity.same(Optional<Request>.none, nil))
        XCTAssertFalse(JSONIdentity.same(Optional(a), nil))
    }

    func testKeysOfSetsAreTheJSON() {
        let keys: Set<JSONIdentityKey<String>> = [JSONIdentityKey(nfc), JSONIdentityKey(nfd), JSONIdentityKey(nfc)]
        XCTAssertEqual(keys.count, 2)
    }

    /// react: text changing from é to e + combining accent is a new request.
    func testReactStartsANewEffectForARequestThatDiffersOnlyInNormalization() throws {
        let system = System<Typeahead>()
        let first = try XCTUnwrap(try system.send(.textChanged(text: nfc)).batch)
        XCTAssertEqual(first.commands.count, 1)
        let second = try XCTUnwrap(try system.send(.textChanged(text: nfd)).batch)
        XCTAssertEqual(second.commands.map(kind), ["cancel", "start"])
        // The same bytes again: nothing to do.
        let third = try XCTUnwrap(try system.send(.textChanged(text: nfd)).batch)
        XCTAssertTrue(third.commands.isEmpty)
    }

    /// reactSet and the feature's own queue: two URLs, two downloads.
    func testReactSetKeepsTwoRequestsThatDifferOnlyInNormalization() throws {
        let system = System<Downloads>()
        _ = try system.send(.enqueue(url: nfc))
        let batch = try XCTUnwrap(try system.send(.enqueue(url: nfd)).batch)
        XCTAssertEqual(batch.commands.map(kind), ["start"])
        XCTAssertEqual(system.state.pending.count, 2)
        XCTAssertEqual(system.runningEffects.count, 2)
    }

    /// A feature's own comparison of host strings: a name re-typed in the other
    /// normalization is a change the user can save.
    func testAFormThatDiffersOnlyInNormalizationHasChanges() throws {
        var state = Profile.State(form: Profile.Form(name: nfc, email: "a@b.co"), saved: Profile.Form(name: nfc, email: "a@b.co"))
        XCTAssertFalse(state.hasChanges)
        Profile.reduce(&state, .setName(name: nfd))
        XCTAssertTrue(state.hasChanges)
        XCTAssertTrue(state.canSave)
    }

    func testNegativeZeroKeepsItsSignInADoubleAndReadsAsZeroInAnInteger() throws {
        let double = try JSONCoding.decode(Double.self, from: "-0")
        XCTAssertEqual(double.sign, .minus)
        XCTAssertEqual(try JSONCoding.decode(Int.self, from: "-0"), 0)
        struct Box: Codable { var x: Double; var n: Int }
        let box = try JSONCoding.decode(Box.self, from: #"{"x":-0,"n":-0}"#)
        XCTAssertEqual(box.x.sign, .minus)
        XCTAssertEqual(try JSONCoding.encodeToString(box), #"{"x":-0.0,"n":0}"#)
    }
}
