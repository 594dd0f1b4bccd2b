@testable import CoreLogic
import XCTest

/// The ledger's rules: a step's cancels come before its starts, in the order each kind
/// was recorded, whichever tracker recorded them; the running set follows every command.
final class EffectLedgerTests: XCTestCase {
    private func describe(_ commands: [EffectCommand]) -> [String] {
        commands.map { command in
            switch command {
            case .cancel(let id): return "cancel \(id)"
            case .start(let id, let feedback, _): return "start \(id) \(feedback)"
            }
        }
    }

    func testCancelsComeBeforeStartsInRecordedOrder() {
        var ledger = EffectLedger(nextID: 10)
        ledger.currentTracker = 0
        let a = ledger.start(feedback: "a", request: 1)
        let b = ledger.start(feedback: "b", request: 2)
        var out: [EffectCommand] = []
        ledger.drainCommands(into: &out)
        XCTAssertEqual(describe(out), ["start 10 a", "start 11 b"])

        // Next step: tracker 0 starts one, then tracker 1 cancels two and starts one.
        ledger.currentTracker = 0
        _ = ledger.start(feedback: "c", request: 3)
        ledger.currentTracker = 1
        ledger.cancel(b)
        ledger.cancel(a)
        _ = ledger.start(feedback: "d", request: 4)
        var next: [EffectCommand] = []
        ledger.drainCommands(into: &next)
        XCTAssertEqual(describe(next), ["cancel 11", "cancel 10", "start 12 c", "start 13 d"])
        XCTAssertEqual(describe(out), ["start 10 a", "start 11 b"], "a drained batch is not touched by later steps")
    }

    func testDrainingAppendsToCommandsAlreadyCollected() {
        var ledger = EffectLedger()
        var out: [EffectCommand] = []
        _ = ledger.start(feedback: "a", request: 1)
        ledger.drainCommands(into: &out)
        ledger.cancel(1)
        _ = ledger.start(feedback: "b", request: 2)
        ledger.drainCommands(into: &out)
        ledger.drainCommands(into: &out)
        XCTAssertEqual(describe(out), ["start 1 a", "cancel 1", "start 2 b"])
    }

    func testRunningSetFollowsStartsAndCancels() {
        var ledger = EffectLedger()
        var ids: [UInt64] = []
        for tracker in 0..<3 {
            ledger.currentTracker = tracker
            for _ in 0..<100 { ids.append(ledger.start(feedback: "f", request: tracker)) }
        }
        XCTAssertEqual(ids, Array(1...300))
        for id in ids where id % 3 == 0 { ledger.cancel(id) }
        for id in ids {
            XCTAssertEqual(ledger.running[id], id % 3 == 0 ? nil : Int((id - 1) / 100), "effect \(id)")
        }
        XCTAssertEqual(ledger.running.removeValue(forKey: 2), 0)
        XCTAssertNil(ledger.running.removeValue(forKey: 2))
        XCTAssertNil(ledger.running[0])
        XCTAssertNil(ledger.running[301])
    }
}
