import XCTest
@testable import CoreLogic
#if canImport(Glibc)
import Glibc
#endif

/// Version 1 of a notes feature: the notes are one text.
enum NotesV1: Feature {
    struct State: Codable, Equatable { var text: String }
    enum Event: Codable, Equatable {
        case append(text: String)
        enum CodingKeys: String, CodingKey, CaseIterable { case append }
    }
    static let name = "notes"
    static var initialState: State { State(text: "") }
    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .append(let text): state.text += text
        }
    }
}

/// Version 2: the notes are lines. A version 1 text becomes one line.
enum NotesV2: Feature {
    struct State: Codable, Equatable { var lines: [String] }
    enum Event: Codable, Equatable {
        case append(text: String)
        enum CodingKeys: String, CodingKey, CaseIterable { case append }
    }
    static let name = "notes"
    static let stateVersion = 2
    static var initialState: State { State(lines: []) }
    static func reduce(_ state: inout State, _ event: Event) {
        switch event {
        case .append(let text): state.lines.append(text)
        }
    }
    static func migrate(_ state: JSONValue, from version: Int) throws -> JSONValue {
        guard version == 1, case .string(let text)? = state["text"] else {
            throw CoreLogicError(.corrupt, "notes: cannot migrate state version \(version)")
        }
        return .object([("lines", .array(text.isEmpty ? [] : [.string(text)]))])
    }
}

/// docs/persistence.md, "Migration": a snapshot of an older state version goes through
/// the feature's migration; a newer one fails naming both versions.
final class MigrationTests: XCTestCase {
    private var directory = ""

    override func setUpWithError() throws {
        var template = Array("/tmp/corelogic-migration-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
        XCTAssertNotNil(made)
        directory = String(cString: template)
    }

    override func tearDown() {
        for name in (try? FileSystem.list(FileSystemPath(directory)!)) ?? [] { unlink(directory + "/" + name) }
        rmdir(directory)
    }

    private func send(_ system: AnySystem, _ event: String) throws {
        var bytes = Array(event.utf8)
        _ = try bytes.withUnsafeMutableBytes { try system.send(UnsafeRawBufferPointer($0)) }
    }

    private func state(_ system: AnySystem) throws -> String {
        var bytes: [UInt8] = []
        try system.writeState { bytes = Array($0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Journals a version 1 system: "hello" in the snapshot, "world" after it.
    private func writeVersion1History() throws {
        let system = try FeatureDescriptor(NotesV1.self).makeSystem()
        try system.openJournal(directory: directory, durability: .everyInput)
        try send(system, #"{"append":{"text":"hello"}}"#)
        try system.checkpoint()
        try send(system, #"{"append":{"text":"world"}}"#)
        XCTAssertEqual(try state(system), #"{"text":"helloworld"}"#)
        system.close()
        system.closeJournal()
    }

    func testAnOlderSnapshotIsMigratedThenTheJournalReplayed() throws {
        try writeVersion1History()
        let restored = try AnySystem.restore(FeatureDescriptor(NotesV2.self), directory: directory)
        defer {
            restored.system.close()
            restored.system.closeJournal()
        }
        XCTAssertEqual(try state(restored.system), #"{"lines":["hello","world"]}"#)
        let report = String(decoding: restored.report, as: UTF8.self)
        XCTAssertTrue(report.contains(#""snapshot":true,"migratedFrom":1,"seq":2,"replayed":1"#), report)
        // The restore's checkpoint wrote the current version.
        let snapshot = String(decoding: try FileSystem.readAll(FileSystemPath(directory + "/snapshot.json")!), as: UTF8.self)
        XCTAssertTrue(snapshot.contains(#""stateVersion":2,"#), snapshot)
    }

    func testANewerSnapshotFailsNamingBothVersions() throws {
        try writeVersion1History()
        let upgraded = try AnySystem.restore(FeatureDescriptor(NotesV2.self), directory: directory)
        upgraded.system.close()
        upgraded.system.closeJournal()
        XCTAssertThrowsError(try AnySystem.restore(FeatureDescriptor(NotesV1.self), directory: directory)) { error in
            let error = error as? CoreLogicError
            XCTAssertEqual(error?.status, .corrupt)
            XCTAssertTrue(error?.message.contains("snapshot has state version 2, newer than version 1") ?? false, "\(String(describing: error))")
        }
    }

    func testAnOlderSnapshotWithoutAMigrationFailsNamingBothVersions() throws {
        try writeVersion1History()
        let upgraded = try AnySystem.restore(FeatureDescriptor(NotesV2.self), directory: directory)
        upgraded.system.close()
        upgraded.system.closeJournal()
        // A version 3 that forgot its migration.
        XCTAssertThrowsError(try AnySystem.restore(FeatureDescriptor(NotesV3.self), directory: directory)) { error in
            let error = error as? CoreLogicError
            XCTAssertEqual(error?.status, .corrupt)
            XCTAssertTrue(error?.message.contains("state version 2, this build reads version 3 and has no migration") ?? false, "\(String(describing: error))")
        }
    }
}

/// Version 3 without a migration function.
enum NotesV3: Feature {
    typealias State = NotesV2.State
    typealias Event = NotesV2.Event
    static let name = "notes"
    static let stateVersion = 3
    static var initialState: State { State(lines: []) }
    static func reduce(_ state: inout State, _ event: Event) { NotesV2.reduce(&state, event) }
}
