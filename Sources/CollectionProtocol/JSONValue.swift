import Foundation

/// A parsed JSON value, used to decode client messages strictly and to say
/// exactly which field is wrong.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses UTF-8 JSON text strictly; throws ``ProtocolError`` naming the problem.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = 32) throws(ProtocolError) -> JSONValue {
        do {
            return try JSONParser.parse(bytes, maxDepth: maxDepth)
        } catch {
            if error.reason.hasPrefix("nests deeper") { throw ProtocolError(.badJSON, "message \(error.reason)") }
            throw ProtocolError(.badJSON, "message is not valid JSON (\(error.reason))")
        }
    }
}

/// Reads the fields of one JSON object, recording which were read so that
/// unknown fields can be refused.
struct FieldReader {
    let fields: [String: JSONValue]
    let path: String
    private(set) var read: Set<String>

    init(_ value: JSONValue, path: String) throws(ProtocolError) {
        guard case .object(let fields) = value else { throw ProtocolError(.badMessage, "\(path.isEmpty ? "message" : "'\(path)'") must be a JSON object") }
        self.fields = fields
        self.path = path
        read = path.isEmpty ? ["type"] : []
    }

    private func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    mutating func optional(_ key: String) -> JSONValue? {
        read.insert(key)
        guard let v = fields[key], v != .null else { return nil }
        return v
    }

    mutating func required(_ key: String) throws(ProtocolError) -> JSONValue {
        guard let v = optional(key) else { throw ProtocolError(.badMessage, "missing field '\(name(key))'") }
        return v
    }

    mutating func string(_ key: String, maxLength: Int = 200) throws(ProtocolError) -> String {
        try checkString(required(key), key, maxLength)
    }

    mutating func optionalString(_ key: String, maxLength: Int = 200) throws(ProtocolError) -> String? {
        guard let v = optional(key) else { return nil }
        return try checkString(v, key, maxLength)
    }

    private func checkString(_ v: JSONValue, _ key: String, _ maxLength: Int) throws(ProtocolError) -> String {
        guard case .string(let s) = v else { throw ProtocolError(.badMessage, "field '\(name(key))' must be a string") }
        guard s.utf8.count <= maxLength else { throw ProtocolError(.badMessage, "field '\(name(key))' is longer than \(maxLength) bytes") }
        return s
    }

    mutating func number(_ key: String, in range: ClosedRange<Double>) throws(ProtocolError) -> Double {
        try checkNumber(required(key), key, range)
    }

    mutating func optionalNumber(_ key: String, in range: ClosedRange<Double>) throws(ProtocolError) -> Double? {
        guard let v = optional(key) else { return nil }
        return try checkNumber(v, key, range)
    }

    private func checkNumber(_ v: JSONValue, _ key: String, _ range: ClosedRange<Double>) throws(ProtocolError) -> Double {
        guard case .number(let d) = v else { throw ProtocolError(.badMessage, "field '\(name(key))' must be a number") }
        guard d.isFinite, range.contains(d) else {
            throw ProtocolError(.badMessage, "field '\(name(key))' must be between \(format(range.lowerBound)) and \(format(range.upperBound))")
        }
        return d
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int {
        let d = try number(key, in: Double(range.lowerBound)...Double(range.upperBound))
        guard d == d.rounded() else { throw ProtocolError(.badMessage, "field '\(name(key))' must be a whole number") }
        return Int(d)
    }

    mutating func optionalInteger(_ key: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int? {
        guard optional(key) != nil else { return nil }
        return try integer(key, in: range)
    }

    mutating func bool(_ key: String) throws(ProtocolError) -> Bool {
        guard case .bool(let b) = try required(key) else { throw ProtocolError(.badMessage, "field '\(name(key))' must be true or false") }
        return b
    }

    mutating func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        guard optional(key) != nil else { return nil }
        return try bool(key)
    }

    mutating func stringArray(_ key: String, count: ClosedRange<Int>, maxLength: Int = 200) throws(ProtocolError) -> [String] {
        guard case .array(let values) = try required(key) else { throw ProtocolError(.badMessage, "field '\(name(key))' must be an array of strings") }
        guard count.contains(values.count) else {
            throw ProtocolError(.badMessage, "field '\(name(key))' must hold \(count.lowerBound) to \(count.upperBound) entries, not \(values.count)")
        }
        var out: [String] = []
        for v in values {
            guard case .string(let s) = v, s.utf8.count <= maxLength else {
                throw ProtocolError(.badMessage, "field '\(name(key))' must be an array of strings")
            }
            out.append(s)
        }
        return out
    }

    mutating func integerArray(_ key: String, count: ClosedRange<Int>, in range: ClosedRange<Int>) throws(ProtocolError) -> [Int] {
        let problem = ProtocolError(.badMessage, "field '\(name(key))' must be an array of \(count.lowerBound) to \(count.upperBound) whole numbers between \(range.lowerBound) and \(range.upperBound)")
        guard case .array(let values) = try required(key), count.contains(values.count) else { throw problem }
        var out: [Int] = []
        for v in values {
            guard case .number(let d) = v, d.isFinite, d == d.rounded(), Double(range.lowerBound)...Double(range.upperBound) ~= d else { throw problem }
            out.append(Int(d))
        }
        return out
    }

    /// An array of objects, each read by its own reader (named `key[i]` in messages).
    mutating func objectArray(_ key: String, count: ClosedRange<Int>) throws(ProtocolError) -> [FieldReader] {
        guard case .array(let values) = try required(key) else { throw ProtocolError(.badMessage, "field '\(name(key))' must be an array of objects") }
        guard count.contains(values.count) else {
            throw ProtocolError(.badMessage, "field '\(name(key))' must hold \(count.lowerBound) to \(count.upperBound) entries, not \(values.count)")
        }
        var out: [FieldReader] = []
        for (i, v) in values.enumerated() { out.append(try FieldReader(v, path: "\(name(key))[\(i)]")) }
        return out
    }

    mutating func object(_ key: String) throws(ProtocolError) -> FieldReader {
        try FieldReader(required(key), path: name(key))
    }

    mutating func optionalObject(_ key: String) throws(ProtocolError) -> FieldReader? {
        guard let v = optional(key) else { return nil }
        return try FieldReader(v, path: name(key))
    }

    /// Throws when the object has fields nobody read.
    func finish() throws(ProtocolError) {
        let unknown = fields.keys.filter { !read.contains($0) }.sorted()
        if let first = unknown.first {
            throw ProtocolError(.badMessage, "unknown field '\(name(first))'")
        }
    }

    private func format(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
    }
}
