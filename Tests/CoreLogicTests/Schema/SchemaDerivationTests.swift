import XCTest
@testable import CoreLogic

/// The rules of schema derivation (docs/schemas.md), one shape per test, on types made
/// for the purpose. The built-in features are checked against the library's own
/// behaviour by bindings/python/tests/test_schema.py.
final class SchemaDerivationTests: XCTestCase {
    func derive<T: Decodable>(_ type: T.Type) throws -> (node: JSONValue, defs: [String: JSONValue]) {
        let deriver = SchemaDeriver()
        let node = try deriver.node(for: T.self)
        var defs: [String: JSONValue] = [:]
        for definition in deriver.definitions { defs[definition.name] = definition.schema }
        return (node, defs)
    }

    private func text(_ value: JSONValue?) -> String { value.map { JSONWriter.string($0) } ?? "nil" }

    struct Scalars: Codable {
        var count: Int
        var ratio: Double
        var single: Float
        var small: UInt8
        var flag: Bool
        var name: String
        var nickname: String?
    }

    func testIntegersNumbersAndOptionals() throws {
        let (node, defs) = try derive(Scalars.self)
        XCTAssertEqual(text(node), ##"{"$ref":"#/$defs/SchemaDerivationTests.Scalars"}"##)
        let schema = try XCTUnwrap(defs["SchemaDerivationTests.Scalars"])
        XCTAssertEqual(text(schema["properties"]?["count"]), ##"{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}"##)
        // Numbers carry their type's range too: the decoder refuses a number beyond it.
        XCTAssertEqual(text(schema["properties"]?["ratio"]), ##"{"type":"number","minimum":-1.7976931348623157e+308,"maximum":1.7976931348623157e+308}"##)
        XCTAssertEqual(text(schema["properties"]?["single"]), ##"{"type":"number","exclusiveMinimum":-3.4028235677973366e+38,"exclusiveMaximum":3.4028235677973366e+38}"##)
        XCTAssertEqual(text(schema["properties"]?["small"]), ##"{"type":"integer","minimum":0,"maximum":255}"##)
        XCTAssertEqual(text(schema["properties"]?["nickname"]), ##"{"anyOf":[{"type":"string"},{"type":"null"}]}"##)
        XCTAssertEqual(text(schema["required"]), ##"["count","ratio","single","small","flag","name"]"##)
        XCTAssertEqual(schema["additionalProperties"], .bool(false))
    }

    struct Containers: Codable {
        var tags: [String]
        var scores: [String: Int]
        var matrix: [[Double]]
        var maybeList: [Int]?
    }

    func testArraysDictionariesAndNesting() throws {
        let (_, defs) = try derive(Containers.self)
        let properties = try XCTUnwrap(defs["SchemaDerivationTests.Containers"]?["properties"])
        XCTAssertEqual(text(properties["tags"]), ##"{"type":"array","items":{"type":"string"}}"##)
        XCTAssertEqual(text(properties["scores"]), ##"{"type":"object","additionalProperties":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}}"##)
        XCTAssertEqual(text(properties["matrix"]), ##"{"type":"array","items":{"type":"array","items":{"type":"number","minimum":-1.7976931348623157e+308,"maximum":1.7976931348623157e+308}}}"##)
        XCTAssertEqual(text(properties["maybeList"]), ##"{"anyOf":[{"type":"array","items":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}},{"type":"null"}]}"##)
    }

    indirect enum Tree: Codable {
        case leaf(value: Int)
        case node(left: Tree, right: Tree)
        case empty

        enum CodingKeys: String, CodingKey, CaseIterable { case leaf, node, empty }
    }

    func testRecursiveEnumRefersToItselfAndListsBothForms() throws {
        let (node, defs) = try derive(Tree.self)
        XCTAssertEqual(text(node), ##"{"$ref":"#/$defs/SchemaDerivationTests.Tree"}"##)
        let tree = text(defs["SchemaDerivationTests.Tree"])
        XCTAssertTrue(tree.contains(##""node":{"type":"object","properties":{"left":{"$ref":"#/$defs/SchemaDerivationTests.Tree"},"right":{"$ref":"#/$defs/SchemaDerivationTests.Tree"}},"required":["left","right"]"##), tree)
        // Only the case with no required payload member may be sent as a bare string.
        XCTAssertTrue(tree.hasSuffix(##"{"title":"payload-less case","type":"string","enum":["empty"]}]}"##), tree)
    }

    struct Folder: Codable {
        var name: String
        var children: [Folder]
    }

    func testRecursiveStructThroughAnArray() throws {
        let (_, defs) = try derive(Folder.self)
        XCTAssertEqual(text(defs["SchemaDerivationTests.Folder"]?["properties"]?["children"]),
                       ##"{"type":"array","items":{"$ref":"#/$defs/SchemaDerivationTests.Folder"}}"##)
    }

    enum Color: String, Codable, CaseIterable { case red, green }
    enum Level: Int, Codable, CaseIterable { case low = 1, high = 5 }
    enum Mood: String, Codable { case calm, busy }

    func testRawValueEnumsListTheirValues() throws {
        let (_, colors) = try derive(Color.self)
        XCTAssertEqual(text(colors["SchemaDerivationTests.Color"]), ##"{"title":"SchemaDerivationTests.Color","type":"string","enum":["red","green"]}"##)
        let (_, levels) = try derive(Level.self)
        XCTAssertEqual(text(levels["SchemaDerivationTests.Level"]), ##"{"title":"SchemaDerivationTests.Level","type":"integer","enum":[1,5]}"##)
    }

    func testUnderivableTypeIsNamedInTheError() {
        XCTAssertThrowsError(try derive(Mood.self)) { error in
            XCTAssertEqual("\(error)", "cannot derive a schema for SchemaDerivationTests.Mood: a raw-value enum must be CaseIterable for its values to be listed")
        }
        struct Holder: Decodable { var mood: Mood }
        XCTAssertThrowsError(try derive(Holder.self)) { error in
            XCTAssertTrue("\(error)".contains("SchemaDerivationTests.Mood"), "\(error)")
        }
    }

    enum Untagged: Codable {
        case one, two
        // CodingKeys that are not CaseIterable: the cases cannot be enumerated.
    }

    func testEnumWithoutCaseIterableKeysIsAnError() {
        XCTAssertThrowsError(try derive(Untagged.self)) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot derive a schema for SchemaDerivationTests.Untagged: it reads the keys of an object whose CodingKeys are not CaseIterable"), "\(error)")
        }
    }

    struct Empty: Codable {}

    func testEmptyStructIsAnEmptyClosedObject() throws {
        let (_, defs) = try derive(Empty.self)
        XCTAssertEqual(text(defs["SchemaDerivationTests.Empty"]), ##"{"title":"SchemaDerivationTests.Empty","type":"object","properties":{},"additionalProperties":false}"##)
    }

    func testFeatureDocumentHasEntryPointsAndIsDeterministic() throws {
        let first = JSONWriter.string(try FeatureSchema.derive(Probe.self))
        let second = JSONWriter.string(try FeatureSchema.derive(Probe.self))
        XCTAssertEqual(first, second)
        let document = try FeatureSchema.derive(Probe.self)
        let defs = try XCTUnwrap(document["$defs"])
        XCTAssertEqual(text(defs["request.first"]), ##"{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}"##)
        XCTAssertEqual(text(defs["query.noteCount"]), ##"{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}"##)
        XCTAssertEqual(text(defs["state"]), ##"{"$ref":"#/$defs/Probe.State"}"##)
        // A batch (full, patch, or patch mode's small state sent whole) may list the inputs
        // a handler queued that were dropped.
        guard case .array(let forms)? = defs["batch"]?["oneOf"] else { return XCTFail("batch is not a oneOf") }
        XCTAssertEqual(forms.count, 3)
        for form in forms {
            XCTAssertEqual(text(form["properties"]?["dropped"]), ##"{"type":"array","items":{"$ref":"#/$defs/droppedInput"},"minItems":1}"##)
        }
        XCTAssertEqual(text(defs["droppedInput"]?["required"]), ##"["input","status","error"]"##)
    }

    enum EncodableOnly: Feature {
        struct State: Codable { var count = 0 }
        enum Event: Codable {
            case tick
            enum CodingKeys: String, CodingKey, CaseIterable { case tick }
        }
        struct Summary: Encodable { var count: Int }
        static let name = "encodableOnly"
        static var initialState: State { State() }
        static func reduce(_ state: inout State, _ event: Event) { state.count += 1 }
        static var queries: [StateQuery<State>] { [StateQuery("summary") { Summary(count: $0.count) }] }
    }

    func testEncodableOnlyQueryValueIsAnErrorNamingTheQuery() {
        XCTAssertThrowsError(try FeatureSchema.derive(EncodableOnly.self)) { error in
            XCTAssertEqual("\(error)", "cannot derive a schema for query 'summary': its value type is Encodable but not Decodable; make it Codable")
        }
        XCTAssertThrowsError(try FeatureDescriptor(EncodableOnly.self).schema()) { error in
            XCTAssertEqual((error as? CoreLogicError)?.status, .schema)
        }
    }

}

extension SchemaDerivationTests {
    struct Pair: Decodable {
        var first: Int
        var second: String

        init(from decoder: Decoder) throws {
            var container = try decoder.unkeyedContainer()
            first = try container.decode(Int.self)
            second = try container.decode(String.self)
        }
    }

    func testFixedLengthArrayIsAnErrorNamingTheType() {
        XCTAssertThrowsError(try derive(Pair.self)) { error in
            XCTAssertEqual("\(error)", "cannot derive a schema for SchemaDerivationTests.Pair: its init(from:) uses an array of fixed length, which the schema cannot describe")
        }
    }
}
