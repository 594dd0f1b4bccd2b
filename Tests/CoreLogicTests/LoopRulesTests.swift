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
        system.willApply = { input, _ in journaled.append("\(input)") }
        _ = try system.send(.setFirst(value: 1))
        _ = try system.deliver(5, .note(text: "stale"))
        _ = try system.complete(5)
        XCTAssertEqual(journaled.count, 1)
    }

    func testAnInputRejectedByTheJournalHookLeavesTheStateUnchanged() throws {
        struct DiskFull: Error {}
        let system = System<Probe>()
        system.willApply = { _, _ in throw DiskFull() }
        XCTAssertThrowsError(try system.send(.setFirst(value: 1)))
        XCTAssertEqual(system.state, Probe.State())
        XCTAssertEqual(system.runningEffects.count, 0)
        XCTAssertEqual(system.nextEffectID, 1)
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
        let system = System<Counter>()
        let threads = 8, perThread = 5_000
        let done = DispatchGroupLike(count: threads)
        for _ in 0..<threads {
            Thread.detach {
                for _ in 0..<perThread { _ = try? system.send(.increment) }
                done.leave()
            }
        }
        done.wait()
        XCTAssertEqual(system.state.count, threads * perThread)
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
    func testCompactingRemovesWhitespaceBetweenTokensOnlyAndKeepsStringsIntact() {
        let text = " {\n \"queryChanged\" :\t{ \"text\" : \"a b\\\" \\\\ \\n c\" } }\r\n"
        let compact = Array(text.utf8).withUnsafeBytes { compactJSON($0) }
        XCTAssertEqual(String(decoding: compact, as: UTF8.self), #"{"queryChanged":{"text":"a b\" \\ \n c"}}"#)
    }

    func testTheHookSeesTheCallersBytesForItsOwnInputAndNoneForQueuedInputs() throws {
        let system = System<Probe>()
        var sources: [String?] = []
        system.willApply = { _, source in sources.append(source.map { String(decoding: $0, as: UTF8.self) }) }
        system.onCommand = { command in
            if case .start(let id, _, _) = command { _ = try? system.deliver(id, .note(text: "queued")) }
        }
        let bytes = Array(#"{"setFirst":{"value":1}}"#.utf8)
        _ = try bytes.withUnsafeBytes { try system.submit(.send(.setFirst(value: 1)), source: $0) { $0 } }
        XCTAssertEqual(sources, [#"{"setFirst":{"value":1}}"#, nil])
    }
}
