import Foundation
import XCTest
import CoreLogic
import CoreLogicTesting
import Cookbook

/// Every golden file of the cookbook (Examples/Cookbook/golden), run in-process with
/// CoreLogicTesting's runner, as an app's own tests run theirs. With
/// CORELOGIC_GOLDEN_UPDATE=1 it rewrites the files instead (`make golden-update` does the
/// same through the golden driver and the library).
final class GoldenFileTests: XCTestCase {
    static let goldenDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("golden")

    func testEveryGoldenFilePasses() throws {
        try GoldenFiles.assertAllPass(in: Self.goldenDirectory, catalog: Cookbook.catalog)
    }

    /// golden/comparisons.json: the cases every host's comparator must agree on.
    func testTheComparatorFollowsTheSharedCases() throws {
        let file = Self.goldenDirectory.appendingPathComponent("comparisons.json")
        guard case .array(let cases)? = try JSONParser.parse(Array(Data(contentsOf: file)))["cases"] else {
            return XCTFail("\(file.path) has no cases")
        }
        XCTAssertFalse(cases.isEmpty)
        for item in cases {
            guard let expected = item["expected"], let actual = item["actual"],
                  case .bool(let equal)? = item["equal"] else { return XCTFail("malformed case \(item)") }
            let found = jsonDifferences(expected: expected, actual: actual)
            XCTAssertEqual(found.isEmpty, equal, "\(item["rule"].map { "\($0)" } ?? ""): \(found)")
            if case .string(let path)? = item["path"] {
                XCTAssertTrue(found.first?.hasPrefix(path + ":") ?? false, "expected the difference at \(path), got \(found)")
            }
        }
    }

    func testEveryFeatureHasASchema() throws {
        for feature in Cookbook.catalog.all {
            XCTAssertNoThrow(try feature.schema(), feature.name)
        }
    }
}
