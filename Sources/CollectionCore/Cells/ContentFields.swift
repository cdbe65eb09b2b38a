import Foundation

/// Content fields from `Encodable` values (a cell's template fills them).
package enum ContentFields {
    /// An `Encodable` value's top-level properties: strings as they are, numbers
    /// and booleans as JSON writes them, nested values as JSON text, nil left out.
    package static func of(_ value: some Encodable) -> [String: String] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(value), let object = try? JSONDecoder().decode([String: FieldValue].self, from: data) else { return [:] }
        return object.compactMapValues(\.text)
    }
}

/// One top-level JSON value as a field's text.
private struct FieldValue: Decodable {
    var text: String?
    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { text = nil }
        else if let s = try? c.decode(String.self) { text = s }
        else if let b = try? c.decode(Bool.self) { text = b ? "true" : "false" }
        else if let i = try? c.decode(Int.self) { text = String(i) }
        else if let d = try? c.decode(Double.self) { text = String(d) }
        else {
            let nested = try c.decode(JSONText.self)
            text = nested.text
        }
    }
}

/// Any JSON value, written back as compact JSON text.
private struct JSONText: Decodable {
    var text: String
    init(from decoder: any Decoder) throws {
        if var list = try? decoder.unkeyedContainer() {
            var parts: [String] = []
            while !list.isAtEnd { parts.append(try list.decode(JSONText.self).text) }
            text = "[" + parts.joined(separator: ",") + "]"
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            let parts = try object.allKeys.sorted { $0.stringValue < $1.stringValue }.map { key in
                "\(Self.quote(key.stringValue)):\(try object.decode(JSONText.self, forKey: key).text)"
            }
            text = "{" + parts.joined(separator: ",") + "}"
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { text = "null" }
        else if let s = try? c.decode(String.self) { text = Self.quote(s) }
        else if let b = try? c.decode(Bool.self) { text = b ? "true" : "false" }
        else if let i = try? c.decode(Int.self) { text = String(i) }
        else { text = String(try c.decode(Double.self)) }
    }

    static func quote(_ s: String) -> String {
        let data = (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
