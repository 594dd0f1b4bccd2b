import Foundation
import XCTest
import CoreLogic

/// Runs every golden file in Tests/golden in-process (no FFI). With
/// CORELOGIC_GOLDEN_UPDATE=1 in the environment (`make golden-update`) it rewrites each
/// file's expectations from the engine instead and prints which files changed.
final class GoldenFileTests: XCTestCase {
    static var goldenDirectory: URL {
        if let custom = ProcessInfo.processInfo.environment["CORELOGIC_GOLDEN_DIR"] {
            return URL(fileURLWithPath: custom)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("golden")
    }

    static func goldenFiles() throws -> [URL] {
        let root = goldenDirectory
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "json" && $0.deletingLastPathComponent() != root }
            .sorted { $0.path < $1.path }
    }

    /// Tests/golden/comparisons.json: the cases every host's comparator must agree on.
    func testTheComparatorFollowsTheSharedCases() throws {
        let file = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("golden/comparisons.json")
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

    func testEveryGoldenFilePasses() throws {
        let update = ProcessInfo.processInfo.environment["CORELOGIC_GOLDEN_UPDATE"] == "1"
        let files = try Self.goldenFiles()
        XCTAssertFalse(files.isEmpty, "no golden files under \(Self.goldenDirectory.path)")
        var passed = 0, failed = 0, changed = 0
        for file in files {
            let name = file.path.replacingOccurrences(of: Self.goldenDirectory.deletingLastPathComponent().path + "/", with: "")
            let text = try Data(contentsOf: file)
            let parsed: JSONValue
            do {
                parsed = try JSONParser.parse(Array(text))
            } catch {
                failed += 1
                print("FAIL \(name): \(error)")
                continue
            }
            let outcome = GoldenRunner.run(parsed)
            if update {
                guard let updated = outcome.updated else {
                    failed += 1
                    print("NOT UPDATED \(name): \(outcome.notUpdatable ?? "")")
                    continue
                }
                let pretty = JSONWriter.prettyString(updated) + "\n"
                if pretty != String(decoding: text, as: UTF8.self) {
                    try Data(pretty.utf8).write(to: file)
                    changed += 1
                    print("updated \(name)")
                    for line in outcome.failures { print("  was: \(line)") }
                }
                passed += 1
                continue
            }
            if outcome.failures.isEmpty {
                passed += 1
            } else {
                failed += 1
                for line in outcome.failures { print("FAIL \(name): \(line)") }
            }
        }
        if update { print("golden update: \(changed) file(s) changed of \(files.count)") }
        print("golden-swift: \(passed) passed, \(failed) failed")
        XCTAssertEqual(failed, 0, "\(failed) golden file(s) failed; see the lines starting with FAIL")
    }
}
