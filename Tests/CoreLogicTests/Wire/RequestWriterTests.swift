import XCTest
@testable import CoreLogic

/// A batch writes each effect's request as the JSON coder does, whatever its type: the
/// batch buffer remembers which request types have direct JSON (a few of them), and that
/// memory must never give one type's writer to another.
final class RequestWriterTests: XCTestCase {
    private struct Plain: Codable, Equatable { var seconds: Int }
    private struct Labelled: Codable { var label: String }
    private struct Pair: Codable { var a: Int; var b: Double }

    func testRequestsOfManyTypesAreWrittenAsTheCoderWritesThem() throws {
        // More types than the buffer remembers, direct (the standard types) and not
        // (`Codable` structs), alternating, each written twice.
        let requests: [any Encodable] = [
            Plain(seconds: 1), 7, "text", Labelled(label: "a\"b"), true, 2.5,
            Pair(a: 1, b: 0.5), [1, 2, 3], Int32(-4), UInt64.max, ["x", "y"], Int64.min,
            Plain(seconds: 2), 8, Labelled(label: "é"),
        ]
        var scratch = ByteScratch(capacity: 16)
        defer { scratch.release() }
        for round in 0..<2 {
            for request in requests {
                scratch.removeAll()
                try scratch.appendRequest(request)
                let written = String(decoding: scratch.bytes, as: UTF8.self)
                let expected = try String(decoding: JSONCoding.encode(request), as: UTF8.self)
                XCTAssertEqual(written, expected, "round \(round), \(type(of: request))")
            }
        }
    }

    func testARequestThatCannotBeWrittenLeavesNothing() {
        var scratch = ByteScratch(capacity: 16)
        defer { scratch.release() }
        scratch.append("[")
        for _ in 0..<2 {
            XCTAssertThrowsError(try scratch.appendRequest(Double.nan))
            XCTAssertThrowsError(try scratch.appendRequest(Pair(a: 1, b: .infinity)))
        }
        XCTAssertEqual(String(decoding: scratch.bytes, as: UTF8.self), "[")
    }
}
