import XCTest
@testable import CoreLogic
@testable import Cookbook

final class PlaycatchTests: XCTestCase {
    func testTheHumanStartsWithTheBallAndNoTimerRuns() {
        let system = System<Playcatch>()
        XCTAssertEqual(system.state.ball, .human)
        XCTAssertEqual(system.initialBatch.effects, [])
    }

    func testWhenTheMachineCatchesItAsksForAOneSecondTimer() throws {
        let system = System<Playcatch>()
        let outcome = try system.send(.humanThrows)
        XCTAssertEqual(outcome.effects, [.start(1, "throwTimer")])
        XCTAssertEqual(outcome.request(1, as: Playcatch.TimerRequest.self), Playcatch.TimerRequest(seconds: 1))
        XCTAssertEqual(system.state.ball, .machine)
    }

    func testTheTimerFiringThrowsTheBallBackAndEndsTheTimer() throws {
        let system = System<Playcatch>()
        _ = try system.send(.humanThrows)
        let outcome = try system.deliver(1, .machineThrows)
        XCTAssertEqual(outcome.batch?.state, Playcatch.State(ball: .human, throwCount: 2))
        XCTAssertEqual(outcome.effects, [.cancel(1)])
        XCTAssertTrue(try system.complete(1).isStale)
    }

    func testEveryCatchByTheMachineGetsAFreshTimer() throws {
        let system = System<Playcatch>()
        var timers: [UInt64] = []
        for _ in 1...3 {
            let started = try system.send(.humanThrows).effects
            guard case .start(let id, "throwTimer")? = started.first else { return XCTFail("no timer: \(started)") }
            timers.append(id)
            _ = try system.deliver(id, .machineThrows)
        }
        XCTAssertEqual(timers, [1, 2, 3])
        XCTAssertEqual(system.state.throwCount, 6)
    }

    func testThrowingABallYouDoNotHoldIsIgnored() throws {
        let system = System<Playcatch>()
        XCTAssertEqual(try system.send(.machineThrows).batch?.state, Playcatch.State())
        _ = try system.send(.humanThrows)
        let outcome = try system.send(.humanThrows)
        XCTAssertEqual(outcome.batch?.state, Playcatch.State(ball: .machine, throwCount: 1))
        XCTAssertEqual(outcome.effects, [])
        XCTAssertEqual(system.running, [.start(1, "throwTimer")])
    }
}
