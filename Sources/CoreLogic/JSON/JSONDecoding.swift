/// `Decoder` over a `JSONValue` tree.
///
/// One decoder object is shared by a whole decode; `value` and `path` describe the
/// value currently being decoded and are saved and restored around nested values.
/// Errors are `JSONError(.schema)` whose path names the offending value;
/// `DecodingError`s thrown by synthesized code are converted where they arise.
final class _TreeDecoder: Decoder {
    @exclusivity(unchecked) var value: JSONValue
    @exclusivity(unchecked) var path: [JSONPathComponent] = []
    /// The most recently created keyed container, to explain the synthesized enum
    /// error "Invalid number of keys found, expected one." in terms of cases.
    @exclusivity(unchecked) var lastKeyType: Any.Type?
    @exclusivity(unchecked) var lastObject: [(String, JSONValue)] = []
    @exclusivity(unchecked) var lastDepth = 0
    @exclusivity(unchecked) var lastExtra: [JSONPathComponent] = []

    /// State of every keyed container created by this decoder (containers hold
    /// an index, so copying a container costs a single retain).
    @exclusivity(unchecked) var objects: [_ObjectState] = []

    init(value: JSONValue) { self.value = value }

    func makeKeyed<Key: CodingKey>(_: Key.Type, obj: [(String, JSONValue)], depth: Int, extra: [JSONPathComponent]) -> KeyedDecodingContainer<Key> {
        objects.append(_ObjectState(obj: obj, depth: depth, extra: extra))
        return KeyedDecodingContainer(_KeyedDecoder<Key>(dec: self, ix: objects.count - 1))
    }

    var codingPath: [CodingKey] { path.map(JSONKey.init) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let obj = try keyedObject(value, Key.self, depth: path.count, extra: [])
        return makeKeyed(Key.self, obj: obj, depth: path.count, extra: [])
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        guard case .array(let a) = value else {
            throw schemaError(path.count, [], nil, "expected an array, found \(value.kindDescription)")
        }
        return _UnkeyedDecoder(dec: self, arr: a, depth: path.count, extra: [])
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        _SingleDecoder(dec: self, value: value, depth: path.count, extra: [])
    }

    // MARK: Paths and errors

    func absolutePath(_ depth: Int, _ extra: [JSONPathComponent], _ last: JSONPathComponent?) -> [JSONPathComponent] {
        JSONPath.join(path, depth, extra, last)
    }

    func schemaError(_ depth: Int, _ extra: [JSONPathComponent], _ last: JSONPathComponent?, _ detail: String) -> JSONError {
        JSONError.schema(JSONPath.render(absolutePath(depth, extra, last)), detail)
    }

    /// The members of `v` for a keyed container of `Key`: an object, or a bare
    /// string naming a case, which stands for `{case: {}}`.
    func keyedObject<Key: CodingKey>(_ v: JSONValue, _: Key.Type, depth: Int, extra: [JSONPathComponent]) throws -> [(String, JSONValue)] {
        let obj: [(String, JSONValue)]
        switch v {
        case .object(let o):
            obj = o
        case .string(let s) where Key.self != _DictionaryKeyType.type:
            if Key(stringValue: s) != nil {
                obj = [(s, .object([]))]
            } else if let names = _caseNames(Key.self) {
                throw schemaError(depth, extra, nil, "unknown case '\(s)'; valid cases: " + names.joined(separator: ", "))
            } else {
                throw schemaError(depth, extra, nil, "expected an object, found \(v.kindDescription)")
            }
        default:
            throw schemaError(depth, extra, nil, "expected an object, found \(v.kindDescription)")
        }
        lastKeyType = Key.self
        lastObject = obj
        lastDepth = depth
        lastExtra = extra
        return obj
    }

    /// Converts an error thrown by `init(from:)` code outside this decoder.
    func convert(_ error: Error) -> Error {
        guard let e = error as? DecodingError else { return error }
        switch e {
        case .typeMismatch(_, let ctx):
            let p = JSONPath.render(codingPath: ctx.codingPath)
            if ctx.debugDescription.hasPrefix("Invalid number of keys"),
               p == JSONPath.render(absolutePath(lastDepth, lastExtra, nil)) {
                return JSONError.schema(p, enumDiagnosis())
            }
            return JSONError.schema(p, ctx.debugDescription)
        case .keyNotFound(let key, let ctx):
            return JSONError.schema(JSONPath.render(codingPath: ctx.codingPath), "missing key '\(key.stringValue)'")
        case .valueNotFound(_, let ctx), .dataCorrupted(let ctx):
            return JSONError.schema(JSONPath.render(codingPath: ctx.codingPath), ctx.debugDescription)
        @unknown default:
            return JSONError.schema("$", String(describing: e))
        }
    }

    /// Explains why the last keyed container does not name exactly one enum case.
    func enumDiagnosis() -> String {
        _enumDiagnosis(keys: lastObject.map { $0.0 }, keyType: lastKeyType)
    }

    // MARK: Values

    /// Decodes `T` from `v`, whose path is `path[0..<depth] + extra + [last]`.
    func decodeValue<T: Decodable>(_: T.Type, from v: JSONValue, depth: Int, extra: [JSONPathComponent], last: JSONPathComponent?) throws -> T {
        if T.self == String.self { return unsafeBitCast(try unboxString(v, depth, extra, last), to: T.self) }
        if T.self == Int.self { return unsafeBitCast(try unboxInteger(v, Int.self, depth, extra, last), to: T.self) }
        if T.self == Bool.self { return unsafeBitCast(try unboxBool(v, depth, extra, last), to: T.self) }
        if T.self == Double.self { return unsafeBitCast(try unboxDouble(v, depth, extra, last), to: T.self) }
        let saved = value
        value = v
        defer { value = saved }
        if path.count == depth {
            path.append(contentsOf: extra)
            if let last = last { path.append(last) }
            defer { path.removeSubrange(min(depth, path.count)...) }
            do { return try T(from: self) } catch { throw convert(error) }
        } else {
            let savedPath = path
            path = absolutePath(depth, extra, last)
            defer { path = savedPath }
            do { return try T(from: self) } catch { throw convert(error) }
        }
    }

    func unboxString(_ v: JSONValue, _ depth: Int, _ extra: [JSONPathComponent], _ last: JSONPathComponent?) throws -> String {
        guard case .string(let s) = v else {
            throw schemaError(depth, extra, last, "expected a string, found \(v.kindDescription)")
        }
        return s
    }

    func unboxBool(_ v: JSONValue, _ depth: Int, _ extra: [JSONPathComponent], _ last: JSONPathComponent?) throws -> Bool {
        guard case .bool(let b) = v else {
            throw schemaError(depth, extra, last, "expected a boolean, found \(v.kindDescription)")
        }
        return b
    }

    func unboxDouble(_ v: JSONValue, _ depth: Int, _ extra: [JSONPathComponent], _ last: JSONPathComponent?) throws -> Double {
        switch v {
        case .double(let d): return d
        case .int(let i): return Double(i)
        case .uint(let u): return Double(u)
        default: throw schemaError(depth, extra, last, "expected a number, found \(v.kindDescription)")
        }
    }

    func unboxFloat(_ v: JSONValue, _ depth: Int, _ extra: [JSONPathComponent], _ last: JSONPathComponent?) throws -> Float {
        let d = try unboxDouble(v, depth, extra, last)
        let f = Float(d)
        guard f.isFinite else { throw schemaError(depth, extra, last, "\(d) does not fit in Float") }
        return f
    }

    func unboxInteger<I: FixedWidthInteger>(_ v: JSONValue, _: I.Type, _ depth: Int, _ extra: [JSONPathComponent], _ last: JSONPathComponent?) throws -> I {
        switch v {
        case .int(let i):
            if let r = I(exactly: i) { return r }
            throw schemaError(depth, extra, last, "\(i) does not fit in \(I.self)")
        case .uint(let u):
            if let r = I(exactly: u) { return r }
            throw schemaError(depth, extra, last, "\(u) does not fit in \(I.self)")
        case .double(let d):
            if let r = I(exactly: d) { return r }
            if JSONWriter.isIntegral(d) {
                throw schemaError(depth, extra, last, "\(d) does not fit in \(I.self)")
            }
            throw schemaError(depth, extra, last, "expected an integer, found \(d)")
        default:
            throw schemaError(depth, extra, last, "expected an integer, found \(v.kindDescription)")
        }
    }
}

/// Case names of a `CaseIterable` coding key type, in declaration order.
func _caseNames<K: CodingKey>(_ k: K.Type) -> [String]? { _caseNamesOfAny(k) }

func _caseNamesOfAny(_ t: Any.Type) -> [String]? {
    guard let c = t as? any (CodingKey & CaseIterable).Type else { return nil }
    return _names(c)
}

private func _names<C: CodingKey & CaseIterable>(_: C.Type) -> [String] {
    C.allCases.map { $0.stringValue }
}

/// One keyed container's object, path and (for big objects) key index.
struct _ObjectState {
    let obj: [(String, JSONValue)]
    let depth: Int
    let extra: [JSONPathComponent]
    let index: [String: Int]?

    init(obj: [(String, JSONValue)], depth: Int, extra: [JSONPathComponent]) {
        self.obj = obj; self.depth = depth; self.extra = extra
        if obj.count > 24 {
            var ix = [String: Int](minimumCapacity: obj.count)
            for (n, pair) in obj.enumerated() where ix[pair.0] == nil { ix[pair.0] = n }
            index = ix
        } else {
            index = nil
        }
    }

    @inline(__always) func find(_ k: String) -> JSONValue? {
        if let ix = index { return ix[k].map { obj[$0].1 } }
        for pair in obj where pair.0 == k { return pair.1 }
        return nil
    }
}

/// Keyed access to one object's members (linear scan; an index for big objects).
struct _KeyedDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let dec: _TreeDecoder
    let ix: Int

    var obj: [(String, JSONValue)] { dec.objects[ix].obj }
    var depth: Int { dec.objects[ix].depth }
    var extra: [JSONPathComponent] { dec.objects[ix].extra }

    var codingPath: [CodingKey] { dec.absolutePath(depth, extra, nil).map(JSONKey.init) }
    var allKeys: [Key] { obj.compactMap { Key(stringValue: $0.0) } }

    @inline(__always) func find(_ key: Key) -> JSONValue? {
        let k = key.stringValue
        return dec.objects[ix].find(k)
    }

    func require(_ key: Key) throws -> JSONValue {
        guard let v = find(key) else {
            throw dec.schemaError(depth, extra, nil, "missing key '\(key.stringValue)'")
        }
        return v
    }

    func contains(_ key: Key) -> Bool { find(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try require(key) { return true }
        return false
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try dec.unboxBool(try require(key), depth, extra, .key(key.stringValue)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try dec.unboxString(try require(key), depth, extra, .key(key.stringValue)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try dec.unboxDouble(try require(key), depth, extra, .key(key.stringValue)) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try dec.unboxFloat(try require(key), depth, extra, .key(key.stringValue)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try dec.unboxInteger(try require(key), type, depth, extra, .key(key.stringValue)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try dec.decodeValue(type, from: try require(key), depth: depth, extra: extra, last: .key(key.stringValue))
    }

    /// Present and not null, else nil.
    @inline(__always) func present(_ key: Key) -> JSONValue? {
        guard let v = find(key) else { return nil }
        if case .null = v { return nil }
        return v
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let v = present(key) else { return nil }
        return try dec.unboxString(v, depth, extra, .key(key.stringValue))
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let v = present(key) else { return nil }
        return try dec.unboxInteger(v, type, depth, extra, .key(key.stringValue))
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let v = present(key) else { return nil }
        return try dec.unboxBool(v, depth, extra, .key(key.stringValue))
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let v = present(key) else { return nil }
        return try dec.unboxDouble(v, depth, extra, .key(key.stringValue))
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let v = present(key) else { return nil }
        return try dec.decodeValue(type, from: v, depth: depth, extra: extra, last: .key(key.stringValue))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let v = try require(key)
        let sub = extra + [.key(key.stringValue)]
        let o = try dec.keyedObject(v, NestedKey.self, depth: depth, extra: sub)
        return dec.makeKeyed(NestedKey.self, obj: o, depth: depth, extra: sub)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        let v = try require(key)
        guard case .array(let a) = v else {
            throw dec.schemaError(depth, extra, .key(key.stringValue), "expected an array, found \(v.kindDescription)")
        }
        return _UnkeyedDecoder(dec: dec, arr: a, depth: depth, extra: extra + [.key(key.stringValue)])
    }

    func superDecoder() throws -> Decoder { superDecoder(name: "super") }
    func superDecoder(forKey key: Key) throws -> Decoder { superDecoder(name: key.stringValue) }

    private func superDecoder(name: String) -> Decoder {
        var v = JSONValue.null
        for pair in obj where pair.0 == name { v = pair.1; break }
        let d = _TreeDecoder(value: v)
        d.path = dec.absolutePath(depth, extra, .key(name))
        return d
    }
}

/// Sequential access to one array's elements.
struct _UnkeyedDecoder: UnkeyedDecodingContainer {
    let dec: _TreeDecoder
    let arr: [JSONValue]
    let depth: Int
    let extra: [JSONPathComponent]
    var currentIndex = 0

    init(dec: _TreeDecoder, arr: [JSONValue], depth: Int, extra: [JSONPathComponent]) {
        self.dec = dec; self.arr = arr; self.depth = depth; self.extra = extra
    }

    var codingPath: [CodingKey] { dec.absolutePath(depth, extra, nil).map(JSONKey.init) }
    var count: Int? { arr.count }
    var isAtEnd: Bool { currentIndex >= arr.count }

    func peek() throws -> JSONValue {
        guard currentIndex < arr.count else {
            throw dec.schemaError(depth, extra, nil, "expected another element, found the end of the array (\(arr.count) elements)")
        }
        return arr[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        if case .null = try peek() { currentIndex += 1; return true }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let v = try peek(); let r = try dec.unboxBool(v, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: String.Type) throws -> String { let v = try peek(); let r = try dec.unboxString(v, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: Double.Type) throws -> Double { let v = try peek(); let r = try dec.unboxDouble(v, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: Float.Type) throws -> Float { let v = try peek(); let r = try dec.unboxFloat(v, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: Int.Type) throws -> Int { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let v = try peek(); let r = try dec.unboxInteger(v, type, depth, extra, .index(currentIndex)); currentIndex += 1; return r }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let v = try peek()
        let r = try dec.decodeValue(type, from: v, depth: depth, extra: extra, last: .index(currentIndex))
        currentIndex += 1
        return r
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let v = try peek()
        let sub = extra + [.index(currentIndex)]
        let o = try dec.keyedObject(v, NestedKey.self, depth: depth, extra: sub)
        currentIndex += 1
        return dec.makeKeyed(NestedKey.self, obj: o, depth: depth, extra: sub)
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer {
        let v = try peek()
        guard case .array(let a) = v else {
            throw dec.schemaError(depth, extra, .index(currentIndex), "expected an array, found \(v.kindDescription)")
        }
        let sub = extra + [.index(currentIndex)]
        currentIndex += 1
        return _UnkeyedDecoder(dec: dec, arr: a, depth: depth, extra: sub)
    }

    mutating func superDecoder() throws -> Decoder {
        let v = try peek()
        let d = _TreeDecoder(value: v)
        d.path = dec.absolutePath(depth, extra, .index(currentIndex))
        currentIndex += 1
        return d
    }
}

/// The single value being decoded.
struct _SingleDecoder: SingleValueDecodingContainer {
    let dec: _TreeDecoder
    let value: JSONValue
    let depth: Int
    let extra: [JSONPathComponent]

    var codingPath: [CodingKey] { dec.absolutePath(depth, extra, nil).map(JSONKey.init) }

    func decodeNil() -> Bool {
        if case .null = value { return true }
        return false
    }

    func decode(_ type: Bool.Type) throws -> Bool { try dec.unboxBool(value, depth, extra, nil) }
    func decode(_ type: String.Type) throws -> String { try dec.unboxString(value, depth, extra, nil) }
    func decode(_ type: Double.Type) throws -> Double { try dec.unboxDouble(value, depth, extra, nil) }
    func decode(_ type: Float.Type) throws -> Float { try dec.unboxFloat(value, depth, extra, nil) }
    func decode(_ type: Int.Type) throws -> Int { try dec.unboxInteger(value, type, depth, extra, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try dec.unboxInteger(value, type, depth, extra, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try dec.unboxInteger(value, type, depth, extra, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try dec.unboxInteger(value, type, depth, extra, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try dec.unboxInteger(value, type, depth, extra, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try dec.unboxInteger(value, type, depth, extra, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try dec.unboxInteger(value, type, depth, extra, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try dec.unboxInteger(value, type, depth, extra, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try dec.unboxInteger(value, type, depth, extra, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try dec.unboxInteger(value, type, depth, extra, nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try dec.decodeValue(type, from: value, depth: depth, extra: extra, last: nil)
    }
}

/// Records the case names of the first keyed container requested, then stops.
final class _CaseNameProbe: Decoder {
    struct Stop: Error {}
    var names: [String]?
    var codingPath: [CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        names = _caseNames(Key.self)
        throw Stop()
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer { throw Stop() }
    func singleValueContainer() throws -> SingleValueDecodingContainer { throw Stop() }
}
