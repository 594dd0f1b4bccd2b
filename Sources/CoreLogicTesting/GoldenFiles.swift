import Foundation
import XCTest
import CoreLogic

/// Every golden file of a directory (docs/golden-files.md), run in-process against an
/// app's catalog; in update mode, each file's expectations rewritten from the engine.
///
/// In an app's test target:
///
/// ```swift
/// final class GoldenFileTests: XCTestCase {
///     func testEveryGoldenFilePasses() throws {
///         try GoldenFiles.assertAllPass(in: goldenDirectory, catalog: myCatalog)
///     }
/// }
/// ```
///
/// With `CORELOGIC_GOLDEN_UPDATE=1` in the environment the same call rewrites the
/// files instead and prints which ones changed. `CORELOGIC_GOLDEN_DIR` replaces the
/// directory (to run another set of files against the same catalog).
public enum GoldenFiles {
    /// What a run found.
    public struct Report {
        public var passed = 0
        public var failed = 0
        /// Files rewritten in update mode.
        public var changed = 0
        /// One line per failure: "FAIL counter/x.json: step 2 (send): $.state.count: ...".
        public var lines: [String] = []
    }

    /// The golden files below `directory`, in the subdirectories (one per feature)
    /// only: files directly in `directory` are shared data, not scenarios.
    public static func files(in directory: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "json" && $0.deletingLastPathComponent().standardizedFileURL != directory.standardizedFileURL }
            .sorted { $0.path < $1.path }
    }

    /// Runs (or with `update`, rewrites) every golden file below `directory`.
    public static func run(in directory: URL, catalog: AppFeatures, update: Bool = false) throws -> Report {
        var report = Report()
        let prefix = directory.standardizedFileURL.path + "/"
        for file in files(in: directory) {
            let name = file.standardizedFileURL.path.replacingOccurrences(of: prefix, with: "")
            let text = try Data(contentsOf: file)
            let parsed: JSONValue
            do {
                parsed = try JSONParser.parse(Array(text))
            } catch {
                report.failed += 1
                report.lines.append("FAIL \(name): \(error)")
                continue
            }
            let outcome = GoldenRunner.run(parsed, catalog: catalog)
            if update {
                guard let updated = outcome.updated else {
                    report.failed += 1
                    report.lines.append("NOT UPDATED \(name): \(outcome.notUpdatable ?? "")")
                    continue
                }
                let pretty = JSONWriter.prettyString(updated) + "\n"
                if pretty != String(decoding: text, as: UTF8.self) {
                    try Data(pretty.utf8).write(to: file)
                    report.changed += 1
                    report.lines.append("updated \(name)")
                    report.lines += outcome.failures.map { "  was: \($0)" }
                }
                report.passed += 1
            } else if outcome.failures.isEmpty {
                report.passed += 1
            } else {
                report.failed += 1
                report.lines += outcome.failures.map { "FAIL \(name): \($0)" }
            }
        }
        return report
    }

    /// Runs every golden file below `directory` and fails the calling test on any
    /// failure, or on finding no file; prints a line per failure and a summary
    /// ("golden-swift: N passed, M failed"). Honours `CORELOGIC_GOLDEN_UPDATE` and
    /// `CORELOGIC_GOLDEN_DIR` (above).
    public static func assertAllPass(
        in directory: URL, catalog: AppFeatures, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let environment = ProcessInfo.processInfo.environment
        let directory = environment["CORELOGIC_GOLDEN_DIR"].map { URL(fileURLWithPath: $0) } ?? directory
        let update = environment["CORELOGIC_GOLDEN_UPDATE"] == "1"
        let report = try run(in: directory, catalog: catalog, update: update)
        for text in report.lines { print(text) }
        if update { print("golden update: \(report.changed) file(s) changed of \(report.passed + report.failed)") }
        print("golden-swift: \(report.passed) passed, \(report.failed) failed")
        XCTAssertGreaterThan(report.passed + report.failed, 0, "no golden files under \(directory.path)", file: file, line: line)
        XCTAssertEqual(report.failed, 0, "\(report.failed) golden file(s) failed; see the lines starting with FAIL", file: file, line: line)
    }
}
