import CoreLogic

/// Semantic JSON comparison for golden files: objects compare by key (order does
/// not matter), numbers by value (1 equals 1.0). Returns one line per difference,
/// each naming its JSON path.
public func jsonDifferences(expected: JSONValue, actual: JSONValue, path: String = "$") -> [String] {
    switch (expected, actual) {
    case (.object(let e), .object(let a)):
        var out: [String] = []
        for (key, value) in e {
            if let other = a.first(where: { $0.0 == key })?.1 {
                out += jsonDifferences(expected: value, actual: other, path: path + "." + key)
            } else {
                out.append("\(path).\(key): expected \(JSONWriter.string(value)), missing")
            }
        }
        for (key, value) in a where !e.contains(where: { $0.0 == key }) {
            out.append("\(path).\(key): not expected, got \(JSONWriter.string(value))")
        }
        return out
    case (.array(let e), .array(let a)):
        var out: [String] = []
        for index in 0..<max(e.count, a.count) {
            let item = "\(path)[\(index)]"
            if index >= a.count {
                out.append("\(item): expected \(JSONWriter.string(e[index])), missing")
            } else if index >= e.count {
                out.append("\(item): not expected, got \(JSONWriter.string(a[index]))")
            } else {
                out += jsonDifferences(expected: e[index], actual: a[index], path: item)
            }
        }
        return out
    default:
        if sameNumber(expected, actual) || expected == actual { return [] }
        return ["\(path): expected \(JSONWriter.string(expected)), got \(JSONWriter.string(actual))"]
    }
}

/// Numbers by value: integers exactly, whatever their width; a double against any number
/// by its value as a double.
private func sameNumber(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case let (.int(x), .int(y)): return x == y
    case let (.uint(x), .uint(y)): return x == y
    case let (.int(x), .uint(y)), let (.uint(y), .int(x)): return x >= 0 && UInt64(x) == y
    default:
        guard let x = numericValue(a), let y = numericValue(b) else { return false }
        return x == y
    }
}

private func numericValue(_ value: JSONValue) -> Double? {
    switch value {
    case .int(let v): return Double(v)
    case .uint(let v): return Double(v)
    case .double(let v): return v
    default: return nil
    }
}
