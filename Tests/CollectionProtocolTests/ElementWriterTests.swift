import Foundation
import Testing
import CollectionProtocol

/// The element writer's two ways: an element whose fixed members were encoded ahead
/// goes through one cursor with no checks; any other, member by member. Both give
/// the same text, which decodes back to the element.
struct ElementWriterTests {
    /// A number from the kinds a layout gives and the edges of the writer's fast path.
    static func number(_ rng: inout some RandomNumberGenerator) -> Double {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: Double(Int.random(in: -10_000...10_000, using: &rng))
        case 1: Double(Int.random(in: -2_000_000...2_000_000, using: &rng)) / 100
        case 2: Double(Int.random(in: 1...3_000, using: &rng)) / 3
        case 3: Double(Int.random(in: 9_999_990...10_000_010, using: &rng)) + [0, 0.5, 0.25, 0.01].randomElement(using: &rng)!
        case 4: Double(Int.random(in: -1_000_000_000_000...1_000_000_000_000, using: &rng))
        case 5: [0, -0.0, 1, 0.5, 1e-5, -1e-5, 0.01, 0.1 + 0.2, 1e15, 1e16 + 2, -99.99, 9_999.995].randomElement(using: &rng)!
        case 6: [Double.nan, .infinity, -.infinity].randomElement(using: &rng)!
        case 7: Double.random(in: -1e9...1e9, using: &rng)
        default: Double(Int.random(in: 0...100, using: &rng)) / 100
        }
    }

    static func element(_ k: Int, _ rng: inout some RandomNumberGenerator) -> Element {
        let bigs = [0, 9, 10, 99, 100, 9_999, 10_000, 123_456_789, Int.max, -1, -10_000, Int.min, Element.zIndexBound]
        let item: Int? = Bool.random(using: &rng) ? nil : [0, 9, 10, 9_999, 10_000, 2_000_000, Int.max].randomElement(using: &rng)!
        return Element(key: "i:\(k) \"q\"", kind: item == nil ? "header" : "cell", reuse: "r\\\(k)", section: Int.random(in: 0...100_000, using: &rng), item: item,
                       frame: (0..<4).map { _ in number(&rng) }, zIndex: bigs.randomElement(using: &rng)!, alpha: number(&rng),
                       hidden: Bool.random(using: &rng), content: ["t": "\(k)\n", "é": "📸"])
    }

    /// What the text of a number must be: Swift's shortest round-trip form, whole
    /// numbers without ".0", and 0 for what JSON cannot say.
    static func text(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        return v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : v.description
    }

    @Test func aPreparedElementIsWrittenAsOneWrittenMemberByMember() throws {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<300 {
            let plain = (0..<5).map { Self.element(round * 5 + $0, &rng) }
            var prepared = plain
            for i in prepared.indices { prepared[i].prepareEncoding() }
            let window = { (e: [Element]) in ServerMessage.window(.init(contentSize: Size(width: 1, height: 1), add: e, remove: [])).encoded() }
            let fast = window(prepared), slow = window(plain)
            #expect(fast == slow, "\(String(decoding: fast, as: UTF8.self))\n\(String(decoding: slow, as: UTF8.self))")
            // Each number as it must be written, read back as the same number.
            let object = try #require(try JSONSerialization.jsonObject(with: Data(fast)) as? [String: Any])
            let added = try #require(object["add"] as? [[String: Any]])
            for (written, e) in zip(added, plain) {
                let frameText = String(decoding: try JSONSerialization.data(withJSONObject: written["frame"]!), as: UTF8.self)
                #expect(String(decoding: fast, as: UTF8.self).contains(#""frame":[\#(e.frame.map(Self.text).joined(separator: ","))]"#), "\(e.frame) as \(frameText)")
                #expect((written["section"] as? NSNumber)?.intValue == e.section)
                #expect((written["item"] as? NSNumber)?.intValue == e.item)
            }
            guard case .window(let back) = try ServerMessage.decode(fast) else { Issue.record("not a window"); return }
            for (b, e) in zip(back.add, plain) {
                #expect(b.zIndex == e.zIndex && b.section == e.section && b.item == e.item && b.hidden == e.hidden && b.content == e.content)
                #expect(zip(b.frame, e.frame).allSatisfy { $0 == $1 || !$1.isFinite && $0 == 0 })
            }
        }
    }

    /// A transform or a frame of another length goes member by member, prepared or not.
    @Test func elementsWithExtrasAreWrittenWhole() throws {
        var e = Element(key: "i:a", kind: "cell", reuse: "r", section: 0, item: 1, frame: [1, 2, 3.5, 4], transform: [1, 0, 0, 1, 2.25, -3],
                        content: ["t": "x"])
        var odd = Element(key: "i:b", kind: "cell", reuse: "r", section: 0, item: 2, frame: [1, 2, 3], content: [:])
        let plain = [e, odd]
        e.prepareEncoding()
        odd.prepareEncoding()
        let encode = { (e: [Element]) in ServerMessage.window(.init(contentSize: Size(width: 1, height: 1), add: e, remove: [])).encoded() }
        let text = String(decoding: encode([e, odd]), as: UTF8.self)
        #expect(encode([e, odd]) == encode(plain))
        #expect(text.contains(#""transform":[1,0,0,1,2.25,-3]"#) && text.contains(#""frame":[1,2,3]"#))
        guard case .window(let back) = try ServerMessage.decode(encode([e, odd])) else { Issue.record("not a window"); return }
        #expect(back.add == plain)
    }
}
