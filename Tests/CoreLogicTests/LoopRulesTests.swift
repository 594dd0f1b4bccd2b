import XCTest
@testable import CoreLogic

/// docs/contract.md §3: the queue, stale inputs, re-entrancy and threads.
final class LoopRulesTests: XCTestCase {
    func testDeliverToACancelledEffectIsStaleAndNeverReachesTheReducer() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 1))
        _ = try system.send(.setFirst(value: 2))
        let before = system.state
        XCTAssertTrue(try system.deliver(1, .note(text: "late")).isStale)
        XCTAssertEqual(system.state, before)
    }

    func testDeliverAndCompleteForANeverStartedEffectAreStale() throws {
        let system = System<Probe>()
        XCTAssertTrue(try system.deliver(99, .note(text: "x")).isStale)
        XCTAssertTrue(try system.complete(99).isStale)
        XCTAssertTrue(try system.deliver(0, .note(text: "x")).isStale)
        XCTAssertEqual(system.state.log, [])
    }

    func testDeliverAfterCompleteIsStale() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 1))
        XCTAssertNotNil(try system.complete(1).batch)
        XCTAssertTrue(try system.deliver(1, .note(text: "after")).isStale)
        XCTAssertTrue(try system.complete(1).isStale)
    }

    func testDeliverToARunningEffectReachesTheReducer() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 1))
        let batch = try XCTUnwrap(try system.deliver(1, .note(text: "result")).batch)
        XCTAssertEqual(batch.state.log, ["result"])
        XCTAssertEqual(batch.steps, 1)
    }

    func testStaleInputsAreNotJournaled() throws {
        let system = System<Probe>()
        var journaled: [String] = []
        system.willApply = { input in journaled.append("\(input)") }
        _ = try system.send(.setFirst(value: 1))
        _ = try system.deliver(5, .note(text: "stale"))
        _ = try system.complete(5)
        XCTAssertEqual(journaled.count, 1)
    }

    func testAnInputRejectedByTheJournalHookLeavesTheStateUnchanged() throws {
        struct DiskFull: Error {}
        let system = System<Probe>()
        system.willApply = { _ in throw DiskFull() }
        XCTAssertThrowsError(try system.send(.setFirst(value: 1)))
        XCTAssertEqual(system.state, Probe.State())
        XCTAssertEqual(system.runningEffects.count, 0)
        XCTAssertEqual(system.nextEffectID, 1)
    }

    /// The outer call's status is about its own input: once it is applied the call
    /// succeeds, and a queued input the hook rejects is dropped (never applied) and listed.
    func testAQueuedInputTheHookRejectsIsDroppedAndReportedAndTheOuterCallSucceeds() throws {
        struct DiskFull: Error {}
        let system = System<Probe>()
        var hooked = 0
        system.willApply = { _ in
            hooked += 1
            if hooked == 2 { throw DiskFull() }
        }
        var queued = false
        system.onState = { _ in
            guard !queued else { return }
            queued = true
            _ = try? system.send(.note(text: "queued, rejected"))
            _ = try? system.send(.note(text: "queued, applied"))
        }
        let batch = try XCTUnwrap(try system.send(.note(text: "outer")).batch)
        XCTAssertEqual(batch.state.log, ["outer", "queued, applied"])
        XCTAssertEqual(batch.steps, 2)
        XCTAssertEqual(batch.dropped.count, 1)
        guard case .send(.note(let text))? = batch.dropped.first?.input else { return XCTFail("\(batch.dropped)") }
        XCTAssertEqual(text, "queued, rejected")
        XCTAssertTrue(batch.dropped.first?.error is DiskFull)
        XCTAssertEqual(system.state.log, ["outer", "queued, applied"])
    }

    func testReentrantCallFromAHandlerIsQueuedAndRunsBeforeTheOuterCallReturns() throws {
        let system = System<Probe>()
        var inner: System<Probe>.Outcome?
        var depth = 0
        var maxDepth = 0
        system.onCommand = { command in
            depth += 1
            maxDepth = max(maxDepth, depth)
            if case .start(let id, _, _) = command {
                inner = try? system.deliver(id, .note(text: "cached"))
            }
            depth -= 1
        }
        let outer = try XCTUnwrap(try system.send(.setFirst(value: 1)).batch)
        XCTAssertEqual(inner?.isQueued, true)
        XCTAssertEqual(outer.steps, 2)
        XCTAssertEqual(outer.state.log, ["cached"])
        XCTAssertEqual(maxDepth, 1)
    }

    func testReducerNeverRunsReentrantly() throws {
        // The state handler sends; if reduce were re-entrant, the log would interleave.
        let system = System<Probe>()
        var sent = 0
        system.onState = { state in
            if sent < 3 {
                sent += 1
                _ = try? system.send(.note(text: "from handler \(sent)"))
            }
        }
        let batch = try XCTUnwrap(try system.send(.note(text: "outer")).batch)
        XCTAssertEqual(batch.state.log, ["outer", "from handler 1", "from handler 2", "from handler 3"])
        XCTAssertEqual(batch.steps, 4)
    }

    func testQueuedDeliverIsDroppedWhenAnEarlierQueuedInputCancelsItsEffect() throws {
        let system = System<Probe>()
        _ = try system.send(.setFirst(value: 1))
        var answered = false
        system.onCommand = { command in
            guard !answered, case .start = command else { return }
            answered = true
            _ = try? system.send(.setFirst(value: 3))          // cancels effect 2
            _ = try? system.deliver(2, .note(text: "late"))    // queued while 2 runs
        }
        let batch = try XCTUnwrap(try system.send(.setFirst(value: 2)).batch)
        XCTAssertEqual(batch.state.log, [])
        XCTAssertEqual(batch.steps, 2)
        XCTAssertEqual(batch.commands.map(Command.init), [.cancel(1), .start(2, "first", 2), .cancel(2), .start(3, "first", 3)])
    }

    func test100000SynchronousAnswersInARowDoNotGrowTheStack() throws {
        // Every start is answered at once from inside the handler with an event that
        // asks for the next effect: 100,000 steps in one call, no recursion.
        let system = System<Probe>()
        let total = 100_000
        system.onCommand = { command in
            if case .start(let id, _, let request) = command, let value = request as? Int, value < total {
                _ = try? system.deliver(id, .setFirst(value: value + 1))
            }
        }
        let batch = try XCTUnwrap(try system.send(.setFirst(value: 1)).batch)
        XCTAssertEqual(batch.state.first, total)
        XCTAssertEqual(batch.steps, total)
    }

    func testEightThreadsSendingConcurrentlyLoseAndDoubleNothing() throws {
        let system = System<Probe>()
        let threads = 8, perThread = 5_000
        let done = DispatchGroupLike(count: threads)
        for _ in 0..<threads {
            Thread.detach {
                for _ in 0..<perThread { _ = try? system.send(.note(text: "")) }
                done.leave()
            }
        }
        done.wait()
        XCTAssertEqual(system.state.log.count, threads * perThread)
    }

    func testAHandlerRemovedFromInsideAHandlerGetsNoMoreCommands() throws {
        let system = System<Probe>()
        var calls = 0
        system.onCommand = { _ in
            calls += 1
            system.onCommand = nil
        }
        let batch = try XCTUnwrap(try system.send(.setSet(values: [1, 2, 3])).batch)
        XCTAssertEqual(calls, 1)
        XCTAssertEqual(batch.commands.count, 3)
    }

    func testCloseFromInsideAHandlerStopsHandlersAndLaterCalls() throws {
        let system = System<Probe>()
        var calls = 0
        system.onCommand = { _ in
            calls += 1
            system.close()
        }
        _ = try system.send(.setSet(values: [1, 2, 3]))
        XCTAssertEqual(calls, 1)
        XCTAssertThrowsError(try system.send(.note(text: "after close"))) { error in
            XCTAssertEqual((error as? CoreLogicError)?.status, .handle)
        }
    }
}

/// The journal hook gets the host's own bytes for the call's input, compacted to one line.
final class JournalSourceTests: XCTestCase {
    /// Restore: the previous life handed out ids below 10, and its last step may have
    /// started, from 10 on, the effects the state asks for; the restored system's effects
    /// come after those, without any JSON.
    func testARestoredSystemNumbersItsEffectsAfterThoseThePreviousLifeMayHaveStarted() throws {
        let previous = System<Probe>()
        _ = try previous.send(.setFirst(value: 1))
        let asked = System<Probe>(state: previous.state).initialBatch.commands.count
        XCTAssertGreaterThan(asked, 0)
        let restored = System<Probe>(restoring: previous.state, previousNextEffectID: 10)
        XCTAssertEqual(restored.firstEffectID, UInt64(10 + asked))
        let started = restored.initialBatch.commands.compactMap { command -> UInt64? in
            if case .start(let id, _, _) = command { return id }
            return nil
        }
        XCTAssertEqual(started, Array(UInt64(10 + asked)..<UInt64(10 + 2 * asked)))
        XCTAssertEqual(restored.state, previous.state)
        // Nothing to skip when the state asks for nothing.
        XCTAssertEqual(System<Probe>(restoring: Probe.State(), previousNextEffectID: 10).firstEffectID, 10)
    }
}
