import Foundation
import XCTest
import CoreLogicTesting
import {{Name}}

final class {{Name}}Tests: XCTestCase {
    /// Every state change and effect command is asserted (TestStore fails on any other).
    func testSavingSendsTheItemsAndEndsWithTheAnswer() {
        let store = TestStore<{{Name}}>()
        store.send(.add(text: "milk")) { $0.items = ["milk"] }
        store.send(.save) { $0.saving = true }
        let save = store.started("save", {{Name}}.SaveRequest(items: ["milk"]))
        store.deliver(save, .saved) { $0.saving = false }
        store.cancelled(save)
        store.finish()
    }

    func testASecondSaveWhileSavingIsIgnored() {
        let store = TestStore<{{Name}}>(initialState: {{Name}}.State(items: ["a"]))
        store.send(.save) { $0.saving = true }
        store.started("save", {{Name}}.SaveRequest(items: ["a"]))
        store.send(.save)
        store.finish()
    }

    /// The golden files (golden/), replayed in-process; every host replays the same files.
    func testEveryGoldenFilePasses() throws {
        let golden = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("golden")
        try GoldenFiles.assertAllPass(in: golden, catalog: catalog)
    }
}
