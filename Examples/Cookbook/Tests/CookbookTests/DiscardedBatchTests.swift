import XCTest
@testable import CoreLogic
@testable import Cookbook

/// `System.submitDiscardingBatch` (the C ABI's NULL batch) builds no batch and makes no
/// command nobody reads; these tests prove it changes nothing else: the same states, ids,
/// running effects and stale answers as `submit`, and a command handler or observer still
/// sees every command.
final class DiscardedBatchTests: XCTestCase {
    /// A search session with starts, cancels, a completion and stale inputs.
    private let inputs: [System<Search>.Input] = [
        .send(.queryChanged(text: "swift")),                      // starts load 1
        .deliver(effect: 1, event: .loadFailed(error: .offline)), // cancels 1, starts timer 2
        .deliver(effect: 1, event: .retry),                       // stale: 1 was cancelled
        .deliver(effect: 2, event: .retry),                       // cancels 2, starts load 3
        .complete(effect: 3),                                     // 3 finished on its own
        .complete(effect: 3),                                     // stale
        .send(.queryChanged(text: "swift nio")),                  // starts load 4
        .deliver(effect: 4, event: .loadFailed(error: .rateLimited(retryAfter: 2))),
    ]

    private func snapshot(_ system: System<Search>) throws -> String {
        let running = system.runningEffects.map { "\($0.id):\($0.feedback)" }.joined(separator: ",")
        return try JSONCoding.encodeToString(system.state) + " next=\(system.nextEffectID) running=\(running)"
    }

    private func commandText(_ command: EffectCommand) -> String {
        switch command {
        case .cancel(let id): return "cancel \(id)"
        case .start(let id, let feedback, let request):
            return "start \(id) \(feedback) " + ((try? JSONCoding.encodeToString(request)) ?? "?")
        }
    }

    func testSameStatesIdsAndRunningEffectsAsSubmit() throws {
        let kept = System<Search>()
        let discarded = System<Search>()
        for input in inputs {
            let outcome = try kept.submit(input)
            let ran = try discarded.submitDiscardingBatch(input)
            if case .stale = outcome {
                XCTAssertFalse(ran, "\(input)")
            } else {
                XCTAssertTrue(ran, "\(input)")
            }
            XCTAssertEqual(try snapshot(discarded), try snapshot(kept), "after \(input)")
            XCTAssertEqual(discarded.revision, kept.revision)
        }
    }

    func testCommandHandlerAndObserverStillSeeEveryCommand() throws {
        let kept = System<Search>()
        var expected: [String] = []
        for input in inputs {
            if case .applied(let batch) = try kept.submit(input) {
                expected += batch.commands.map(commandText)
            }
        }
        XCTAssertGreaterThan(expected.count, 4)

        let handled = System<Search>()
        var received: [String] = []
        handled.onCommand = { received.append(self.commandText($0)) }
        for input in inputs { _ = try handled.submitDiscardingBatch(input) }
        XCTAssertEqual(received, expected)

        let observed = System<Search>()
        var seen: [String] = []
        observed.stepObserver = System<Search>.StepObserver(
            willStep: { _ in },
            didStep: { _, _, commands in seen += commands.map(self.commandText) },
            dropped: { _ in })
        for input in inputs { _ = try observed.submitDiscardingBatch(input) }
        XCTAssertEqual(seen, expected)
    }

    /// A handler installed during a call receives the commands of the steps after it.
    func testCommandHandlerInstalledByAStateHandler() throws {
        let system = System<Search>()
        var received: [String] = []
        system.onState = { [unowned system] _ in
            if system.revision == 1 {
                system.onCommand = { received.append(self.commandText($0)) }
                // Queued from the handler: runs in this call, after the handler is installed.
                _ = try? system.submitDiscardingBatch(.deliver(effect: 1, event: .loadFailed(error: .offline)))
            }
        }
        XCTAssertTrue(try system.submitDiscardingBatch(.send(.queryChanged(text: "swift"))))
        XCTAssertEqual(received.count, 2)
        XCTAssertEqual(received.first, "cancel 1")
        XCTAssertTrue(received.last?.hasPrefix("start 2 retryTimer ") == true, "\(received)")
    }
}
