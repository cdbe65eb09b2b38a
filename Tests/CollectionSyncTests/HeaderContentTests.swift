import CollectionCore
import CollectionProtocol
import CollectionSync
import Testing

/// A header shows its section's title and count as the model has them now, for every
/// viewer (the fields are made once per model change and shared).
@Suite struct HeaderContentTests {
    func batch(_ out: [Outgoing], to key: UInt64) -> ServerMessage.Batch? {
        out.lazy.filter { $0.viewer == key }.compactMap { if case .batch(let b) = $0.message { b } else { nil } }.first
    }

    @Test func everyViewerSeesTheHeaderCountChangeAndOnlyThen() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2, width: 650)
        // An insert changes section a's count: both viewers get its header again, with 32.
        let inserted = hub.send(#"{"type":"insert","op":"x1","section":"a","count":2}"#, from: 1)
        for key in [UInt64(1), 2] {
            let header = try #require(batch(inserted, to: key)?.elements.first { $0.key == "h:a" })
            #expect(header.content == ["title": "A", "count": "32"])
        }
        // A shuffle keeps the count: no viewer gets the header again.
        let shuffled = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        for key in [UInt64(1), 2] {
            let b = try #require(batch(shuffled, to: key))
            #expect(!b.elements.isEmpty && !b.elements.contains { $0.key == "h:a" })
        }
        // A delete brings it down again, for both.
        let deleted = hub.send(#"{"type":"delete","op":"d1","items":["a0","a1","a2"]}"#, from: 2)
        for key in [UInt64(1), 2] {
            let header = try #require(batch(deleted, to: key)?.elements.first { $0.key == "h:a" })
            #expect(header.content["count"] == "29")
        }
        // A viewer joining now is welcomed with the current fields.
        let late = try #require(hub.hello(3))
        #expect(late.elements.first { $0.key == "h:a" }?.content == ["title": "A", "count": "29"])
    }
}
