import CollectionProtocol
import Foundation
import Testing

@Suite struct JSONParserTests {
    func parse(_ text: String) throws(ProtocolError) -> JSONValue { try JSONValue.parse(Array(text.utf8)) }

    @Test func parsesWhatJSONAllows() throws {
        #expect(try parse(#" {"a" : [1, -2.5e3, 0, true, false, null], "b":{}} "#)
                == .object(["a": .array([.number(1), .number(-2500), .number(0), .bool(true), .bool(false), .null]), "b": .object([:])]))
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""caf\u00e9 \ud83d\udcf8 é""#) == .string("café 📸 é"))
        #expect(try parse("9007199254740992") == .number(9007199254740992))
        #expect(try parse("[]") == .array([]))
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "-", "1e", "NaN", "Infinity", "-Infinity", "1e400",
        "tru", "nul", "\"unterminated", "\"tab\there\"", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"",
        "{\"a\":1 \"b\":2}", "{a:1}", "[1 2]", "1 2", "{\"a\":1,\"a\":2}", "'single'",
    ])
    func refusesWhatJSONDoesNot(input: String) {
        #expect(throws: ProtocolError.self, "\(input)") { try parse(input) }
    }

    @Test func refusesInvalidUTF8AndExcessiveNesting() {
        #expect(throws: ProtocolError.self) { try JSONValue.parse([0x22, 0xFF, 0xFE, 0x22]) }
        let deep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
        #expect(throws: ProtocolError(.badJSON, "message nests deeper than 32 levels")) { try parse(deep) }
        let ok = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
        #expect((try? parse(ok)) != nil)
        // A very deep input fails fast, without recursing through it.
        #expect(throws: ProtocolError.self) { try parse(String(repeating: "[", count: 100_000)) }
    }

    @Test func agreesWithFoundationOnValidInput() throws {
        let samples = [#"{"type":"hello","viewport":{"width":800.5,"height":600},"offset":{"x":0,"y":-1e2}}"#,
                       #"[1,2,{"k":"v\u0041"},[],{}]"#, #""é\n""#, "0.000001", "12345678901234"]
        for text in samples {
            let ours = try parse(text)
            let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            #expect(describe(ours) == describe(theirs), "\(text)")
        }
    }

    func describe(_ v: JSONValue) -> String {
        switch v {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let d): "\(d)"
        case .string(let s): "s:\(s)"
        case .array(let a): "[" + a.map(describe).joined(separator: ",") + "]"
        case .object(let o): "{" + o.sorted { $0.key < $1.key }.map { "\($0.key)=\(describe($0.value))" }.joined(separator: ",") + "}"
        }
    }

    func describe(_ v: Any) -> String {
        switch v {
        case is NSNull: return "null"
        case let s as String: return "s:\(s)"
        case let a as [Any]: return "[" + a.map { describe($0) }.joined(separator: ",") + "]"
        case let o as [String: Any]: return "{" + o.sorted { $0.key < $1.key }.map { "\($0.key)=\(describe($0.value))" }.joined(separator: ",") + "}"
        case let n as NSNumber: return "\(n.doubleValue)"
        default: return "?"
        }
    }
}
