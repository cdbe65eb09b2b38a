import CollectionProtocol
import Testing

/// The order checksum is computed by the server and checked by the client
/// (Public/collection-view/order.js): both must give the same digits.
@Suite struct OrderChecksumTests {
    /// 64-bit FNV-1a over each identifier's UTF-8 bytes and a 0x1F after each, byte by byte.
    static func reference(_ ids: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in ids {
            for byte in Array(id.utf8) + [0x1F] { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    @Test func matchesTheClientsValues() {
        // The values Tests/js/order.test.mjs pins for the client.
        #expect(orderChecksum([String]()) == "cbf29ce484222325")
        #expect(orderChecksum(["p1", "p2", "p3"]) == "3f021761233f0174")
        #expect(orderChecksum(["é", "日本", "x"]) == "612ba291ec8d3202")
    }

    /// Short identifiers (held in the string itself), long ones (in storage of
    /// their own), substrings' copies, any sequence of strings.
    @Test func matchesTheReferenceForEveryKindOfString() {
        let long = String(repeating: "a long identifier, past fifteen bytes ", count: 3)
        let ids = ["p1", long, "日本語の識別子は長い", String(long.dropFirst(7)), "", "s0-12345"]
        #expect(orderChecksum(ids) == Self.reference(ids))
        #expect(orderChecksum(ids[1...]) == Self.reference(Array(ids[1...])))
        #expect(orderChecksum(ids.lazy.map { $0 }) == Self.reference(ids))
        #expect(orderChecksum(ids) != orderChecksum(ids.reversed()))
    }
}
