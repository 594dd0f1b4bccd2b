import XCTest
@testable import CoreLogic
@testable import Cookbook

final class ProfileTests: XCTestCase {
    typealias Form = Profile.Form
    typealias SaveRequest = Profile.SaveRequest
    let ada = Form(name: "Ada", email: "ada@example.com")

    func filledSystem() throws -> System<Profile> {
        let system = System<Profile>()
        _ = try system.sendAll([.setName(name: "Ada"), .setEmail(email: "ada@example.com")])
        return system
    }

    func testEachUpdateChangesExactlyItsField() throws {
        var state = Profile.initialState
        Profile.reduce(&state, .setName(name: "Ada"))
        XCTAssertEqual(state.form, Form(name: "Ada"))
        Profile.reduce(&state, .setEmail(email: "ada@example.com"))
        XCTAssertEqual(state.form, ada)
        Profile.reduce(&state, .setAvatar(url: "https://example.com/ada.png"))
        XCTAssertEqual(state.form.avatarURL, "https://example.com/ada.png")
        Profile.reduce(&state, .upgradeToPremium)
        XCTAssertEqual(state.form, Form(name: "Ada", email: "ada@example.com",
                                        avatarURL: "https://example.com/ada.png", isPremium: true))
        Profile.reduce(&state, .setAvatar(url: nil))
        XCTAssertNil(state.form.avatarURL)
        XCTAssertTrue(state.form.isPremium)
    }

    func testEmailValidation() {
        for valid in ["ada@example.com", "a.b@c.d.org"] {
            XCTAssertTrue(Profile.State(form: Form(email: valid)).isEmailValid, valid)
        }
        for invalid in ["", "ada", "ada@", "@example.com", "ada@example", "ada@example.", "ada@.com",
                        "a@b@c.com", "ada @example.com"] {
            XCTAssertFalse(Profile.State(form: Form(email: invalid)).isEmailValid, invalid)
        }
    }

    func testCanSaveNeedsAValidFormWithChangesAndNoSaveInFlight() throws {
        XCTAssertFalse(Profile.initialState.canSave, "no changes")
        XCTAssertFalse(Profile.State(form: Form(name: "Ada", email: "ada")).canSave, "invalid email")
        XCTAssertFalse(Profile.State(form: Form(name: "  ", email: "ada@example.com")).canSave, "blank name")
        XCTAssertTrue(Profile.State(form: ada).canSave)
        XCTAssertFalse(Profile.State(form: ada, saved: ada).canSave, "already saved")
        XCTAssertFalse(Profile.State(form: ada, saving: SaveRequest(press: 1, form: ada)).canSave, "saving")
    }

    func testAPressSavesACopyOfTheFormNumberedByThePress() throws {
        let system = try filledSystem()
        let outcome = try system.send(.savePressed)
        XCTAssertEqual(outcome.effects, [.start(1, "save")])
        XCTAssertEqual(outcome.request(1, as: SaveRequest.self), SaveRequest(press: 1, form: ada))
    }

    func testASecondPressWhileSavingIsIgnored() throws {
        let system = try filledSystem()
        let log = CommandLog(system)
        _ = try system.send(.savePressed)
        _ = try system.send(.setName(name: "Ada L"))
        _ = try system.send(.savePressed)
        _ = try system.send(.savePressed)
        XCTAssertEqual(log.effects, [.start(1, "save")])
        XCTAssertEqual(system.state.presses, 1)
    }

    func testEditsWhileSavingDoNotChangeTheSaveInFlightAndShowAsUnsaved() throws {
        let system = try filledSystem()
        _ = try system.send(.savePressed)
        XCTAssertEqual(try system.send(.setName(name: "Ada L")).effects, [], "the save in flight is not restarted")
        XCTAssertEqual(system.runningRequest("save", as: SaveRequest.self), SaveRequest(press: 1, form: ada))
        let outcome = try system.deliver(1, .saved(press: 1))
        XCTAssertEqual(outcome.effects, [.cancel(1)])
        XCTAssertEqual(system.state.saved, ada)
        XCTAssertTrue(system.state.hasChanges)
        XCTAssertEqual(try system.send(.savePressed).request(2, as: SaveRequest.self),
                       SaveRequest(press: 2, form: Form(name: "Ada L", email: "ada@example.com")))
    }

    func testAnAnswerForAnotherPressIsIgnored() throws {
        let system = try filledSystem()
        _ = try system.send(.savePressed)
        let before = system.state
        XCTAssertEqual(try system.deliver(1, .saved(press: 7)).batch?.state, before)
        XCTAssertEqual(try system.deliver(1, .saveFailed(press: 7, message: "x")).batch?.state, before)
    }

    func testAFailedSaveKeepsTheChangesAndAllowsAnotherPress() throws {
        let system = try filledSystem()
        _ = try system.send(.savePressed)
        let failed = try system.deliver(1, .saveFailed(press: 1, message: "offline"))
        XCTAssertEqual(failed.batch?.state.lastError, "offline")
        XCTAssertEqual(failed.batch?.state.saved, Form())
        let again = try system.send(.savePressed)
        XCTAssertEqual(again.effects, [.start(2, "save")])
        XCTAssertEqual(again.request(2, as: SaveRequest.self), SaveRequest(press: 2, form: ada))
        XCTAssertNil(again.batch?.state.lastError)
    }

    func testAPressWithNothingValidToSaveIsIgnored() throws {
        let system = System<Profile>()
        _ = try system.send(.setEmail(email: "nope"))
        XCTAssertEqual(try system.send(.savePressed).effects, [])
        XCTAssertEqual(system.state.presses, 0)
    }
}
