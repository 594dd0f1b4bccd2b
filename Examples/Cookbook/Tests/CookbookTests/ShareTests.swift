import XCTest
@testable import CoreLogic
@testable import Cookbook

final class ShareTests: XCTestCase {
    typealias ShareRequest = Share.ShareRequest
    let metadata = Share.Metadata(title: "Holiday", message: "Look!")

    func readySystem() throws -> System<Share> {
        let system = System<Share>()
        _ = try system.sendAll([.filesChanged(files: ["a.jpg", "b.jpg"]), .metadataChanged(metadata: metadata)])
        return system
    }

    func testATapSharesTheFilesAndMetadataOfThatMoment() throws {
        let system = try readySystem()
        let outcome = try system.send(.shareTapped)
        XCTAssertEqual(outcome.effects, [.start(1, "share")])
        XCTAssertEqual(outcome.request(1, as: ShareRequest.self), ShareRequest(files: ["a.jpg", "b.jpg"], metadata: metadata))
    }

    func testOneTapAndAHundredDataChangesStartExactlyOneShareRequest() throws {
        let system = try readySystem()
        let log = CommandLog(system)
        _ = try system.send(.shareTapped)
        for n in 0..<100 {
            if n.isMultiple(of: 2) {
                _ = try system.send(.filesChanged(files: ["c\(n).jpg"]))
            } else {
                _ = try system.send(.metadataChanged(metadata: .init(title: "t\(n)", message: "m\(n)")))
            }
        }
        XCTAssertEqual(log.effects, [.start(1, "share")])
        XCTAssertEqual(log.requests(of: "share", as: ShareRequest.self),
                       [ShareRequest(files: ["a.jpg", "b.jpg"], metadata: metadata)])
        XCTAssertEqual(system.runningRequest("share", as: ShareRequest.self),
                       ShareRequest(files: ["a.jpg", "b.jpg"], metadata: metadata))
    }

    func testASecondTapWhileSharingIsIgnored() throws {
        let system = try readySystem()
        _ = try system.send(.shareTapped)
        _ = try system.send(.filesChanged(files: ["new.jpg"]))
        let outcome = try system.send(.shareTapped)
        XCTAssertEqual(outcome.effects, [])
        XCTAssertEqual(outcome.batch?.state.pendingShare?.files, ["a.jpg", "b.jpg"])
    }

    func testATapWithNoFilesIsIgnored() throws {
        let system = System<Share>()
        XCTAssertEqual(try system.send(.shareTapped).effects, [])
        XCTAssertNil(system.state.pendingShare)
    }

    func testAfterTheShareEndsTheNextTapSharesTheNewData() throws {
        let system = try readySystem()
        _ = try system.send(.shareTapped)
        _ = try system.send(.filesChanged(files: ["new.jpg"]))
        let finished = try system.deliver(1, .shareFinished(completed: true))
        XCTAssertEqual(finished.effects, [.cancel(1)])
        XCTAssertEqual(finished.batch?.state.lastOutcome, .sent)
        let again = try system.send(.shareTapped)
        XCTAssertEqual(again.effects, [.start(2, "share")])
        XCTAssertEqual(again.request(2, as: ShareRequest.self), ShareRequest(files: ["new.jpg"], metadata: metadata))
    }

    func testTheSameDataCanBeSharedAgainAfterTheFirstShareEnds() throws {
        let system = try readySystem()
        _ = try system.send(.shareTapped)
        _ = try system.deliver(1, .shareFinished(completed: false))
        XCTAssertEqual(system.state.lastOutcome, .cancelled)
        XCTAssertEqual(try system.send(.shareTapped).effects, [.start(2, "share")])
    }

    func testAFailedShareIsRecordedAndEndsTheShare() throws {
        let system = try readySystem()
        _ = try system.send(.shareTapped)
        let outcome = try system.deliver(1, .shareFailed(message: "no app"))
        XCTAssertEqual(outcome.batch?.state.lastOutcome, .failed(message: "no app"))
        XCTAssertEqual(outcome.effects, [.cancel(1)])
    }
}
