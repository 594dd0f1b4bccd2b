import XCTest
@testable import CoreLogic
@testable import Cookbook

final class SignupTests: XCTestCase {
    typealias Inputs = Signup.Inputs
    typealias Submission = Signup.Submission
    let valid = Inputs(name: "Ada", email: "ada@example.com", password: "correct horse")

    func filledSystem() throws -> System<Signup> {
        let system = System<Signup>()
        _ = try system.sendAll([
            .nameChanged(text: valid.name), .emailChanged(text: valid.email), .passwordChanged(text: valid.password),
        ])
        return system
    }

    func testEveryInvalidFieldHasAnErrorAndBlocksSubmit() {
        let state = Signup.State(inputs: Inputs(name: " ", email: "ada", password: "short"))
        XCTAssertEqual(state.fieldErrors, Signup.FieldErrors(
            name: "Enter your name.", email: "Enter a valid email address.", password: "Use at least 8 characters."))
        XCTAssertFalse(state.canSubmit)
        XCTAssertEqual(Signup.State(inputs: valid).fieldErrors, Signup.FieldErrors())
        XCTAssertTrue(Signup.State(inputs: valid).canSubmit)
    }

    func testSubmitCombinesAllInputsAtTheMomentOfTheTap() throws {
        let system = try filledSystem()
        let outcome = try system.send(.submitTapped)
        XCTAssertEqual(outcome.effects, [.start(1, "submit")])
        XCTAssertEqual(outcome.request(1, as: Submission.self), Submission(attempt: 1, inputs: valid))
        XCTAssertEqual(try system.send(.nameChanged(text: "Bob")).effects, [])
        XCTAssertEqual(system.runningRequest("submit", as: Submission.self), Submission(attempt: 1, inputs: valid))
    }

    func testNoSecondSubmissionWhileOneIsInFlight() throws {
        let system = try filledSystem()
        let log = CommandLog(system)
        _ = try system.sendAll([.submitTapped, .submitTapped, .emailChanged(text: "b@example.com"), .submitTapped])
        XCTAssertEqual(log.effects, [.start(1, "submit")])
        XCTAssertEqual(system.state.attempts, 1)
    }

    func testAnInvalidFormIsNotSubmitted() throws {
        let system = System<Signup>()
        _ = try system.send(.emailChanged(text: "ada@example.com"))
        XCTAssertEqual(try system.send(.submitTapped).effects, [])
        XCTAssertNil(system.state.submission)
    }

    func testServerFieldErrorsAreMappedBackToTheirFields() throws {
        let system = try filledSystem()
        _ = try system.send(.submitTapped)
        let outcome = try system.deliver(1, .rejected(attempt: 1, errors: [
            .init(field: .email, message: "Already registered."),
            .init(field: .password, message: "Too common."),
        ]))
        XCTAssertEqual(outcome.effects, [.cancel(1)])
        XCTAssertEqual(system.state.fieldErrors,
                       Signup.FieldErrors(email: "Already registered.", password: "Too common."))
        XCTAssertFalse(system.state.canSubmit)
    }

    func testEditingAFieldClearsOnlyThatFieldsServerError() throws {
        let system = try filledSystem()
        _ = try system.send(.submitTapped)
        _ = try system.deliver(1, .rejected(attempt: 1, errors: [
            .init(field: .email, message: "Already registered."),
            .init(field: .password, message: "Too common."),
        ]))
        _ = try system.send(.emailChanged(text: "ada2@example.com"))
        XCTAssertEqual(system.state.fieldErrors, Signup.FieldErrors(password: "Too common."))
        _ = try system.send(.passwordChanged(text: "a much better one"))
        XCTAssertTrue(system.state.canSubmit)
        let again = try system.send(.submitTapped)
        XCTAssertEqual(again.effects, [.start(2, "submit")])
        XCTAssertEqual(again.request(2, as: Submission.self),
                       Submission(attempt: 2, inputs: Inputs(name: "Ada", email: "ada2@example.com", password: "a much better one")))
    }

    func testAFailureAboutNoFieldAllowsAnotherAttempt() throws {
        let system = try filledSystem()
        _ = try system.send(.submitTapped)
        _ = try system.deliver(1, .failed(attempt: 1, message: "offline"))
        XCTAssertEqual(system.state.failure, "offline")
        XCTAssertEqual(try system.send(.submitTapped).effects, [.start(2, "submit")])
        XCTAssertNil(system.state.failure)
    }

    func testAnAnswerForAnotherAttemptIsIgnored() throws {
        let system = try filledSystem()
        _ = try system.send(.submitTapped)
        let before = system.state
        XCTAssertEqual(try system.deliver(1, .accepted(attempt: 9, accountID: "x")).batch?.state, before)
    }

    func testAcceptedEndsTheFormAndLaterEventsAreIgnored() throws {
        let system = try filledSystem()
        _ = try system.send(.submitTapped)
        _ = try system.deliver(1, .accepted(attempt: 1, accountID: "u42"))
        XCTAssertEqual(system.state.accountID, "u42")
        let done = system.state
        XCTAssertEqual(try system.sendAll([.nameChanged(text: "Bob"), .submitTapped]), [])
        XCTAssertEqual(system.state, done)
    }
}
