/// A strict RFC 8259 parser for client messages: UTF-8 bytes to ``JSONValue``.
/// Refuses what JSON does not allow (NaN, Infinity, leading zeros, trailing
/// commas, control characters in strings, lone surrogates, invalid UTF-8), and
/// also duplicate keys and nesting past `maxDepth`, while parsing rather than after.
struct JSONParser {
    struct Failure: Error {
        let reason: String
    }

    private let bytes: [UInt8]
    private var i = 0
    private let maxDepth: Int

    init(_ bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    static func parse(_ bytes: [UInt8], maxDepth: Int) throws(Failure) -> JSONValue {
        var p = JSONParser(bytes, maxDepth: maxDepth)
        p.skipSpace()
        let value = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == p.bytes.count else { throw Failure(reason: "unexpected content after the value at byte \(p.i)") }
        return value
    }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private func fail(_ reason: String) -> Failure { Failure(reason: "\(reason) at byte \(i)") }

    private mutating func expect(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard i + count <= bytes.count else { throw fail("unexpected end") }
        let matches = literal.withUTF8Buffer { lit in (0..<count).allSatisfy { bytes[i + $0] == lit[$0] } }
        guard matches else { throw fail("unexpected literal") }
        i += count
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard i < bytes.count else { throw fail("unexpected end") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maxDepth else { throw Failure(reason: "nests deeper than \(maxDepth) levels") }
        i += 1
        var fields: [String: JSONValue] = [:]
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
            skipSpace()
            let v = try value(depth: depth)
            guard fields.updateValue(v, forKey: key) == nil else { throw fail("duplicate key '\(key.prefix(40))'") }
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(fields) }
            throw fail("expected ',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= maxDepth else { throw Failure(reason: "nests deeper than \(maxDepth) levels") }
        i += 1
        var values: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(values) }
        while true {
            skipSpace()
            values.append(try value(depth: depth))
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(values) }
            throw fail("expected ',' or ']'")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("unexpected end in \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("bad \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func string() throws(Failure) -> String {
        i += 1   // opening quote
        var out: [UInt8] = []
        let start = i
        // Fast path: no escapes.
        while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
            guard bytes[i] >= 0x20 else { throw fail("control character in a string") }
            i += 1
        }
        guard i < bytes.count else { throw fail("unterminated string") }
        out.append(contentsOf: bytes[start..<i])
        while bytes[i] != UInt8(ascii: "\"") {
            // bytes[i] is a backslash here.
            i += 1
            guard i < bytes.count else { throw fail("unterminated string") }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { throw fail("lone surrogate") }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw fail("lone surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw fail("lone surrogate")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("bad \\u escape") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default:
                throw fail("bad escape")
            }
            while i < bytes.count, bytes[i] != UInt8(ascii: "\""), bytes[i] != UInt8(ascii: "\\") {
                guard bytes[i] >= 0x20 else { throw fail("control character in a string") }
                out.append(bytes[i])
                i += 1
            }
            guard i < bytes.count else { throw fail("unterminated string") }
        }
        i += 1   // closing quote
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
        return s
    }

    private mutating func number() throws(Failure) -> Double {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.i]) { p.i += 1 }
            return p.i - s
        }
        guard i < bytes.count else { throw fail("bad number") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            guard digits(&self) > 0 else { throw fail("bad number") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw fail("bad number") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw fail("bad number") }
        }
        guard let d = Double(String(decoding: bytes[start..<i], as: UTF8.self)), d.isFinite else { throw fail("number out of range") }
        return d
    }
}
