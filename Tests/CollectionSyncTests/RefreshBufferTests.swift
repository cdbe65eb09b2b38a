import CollectionCore
import CollectionProtocol
import CollectionSync
import Testing

/// A refresh fills the last refresh's array of changed elements again once the
/// message that took it is gone, and never while a message still holds it.
@Suite struct RefreshBufferTests {
    /// Viewer `key`'s batch in `out`: where its elements lie, and their keys and frames.
    func batchElements(_ out: [Outgoing], for key: UInt64) -> (base: UnsafeRawPointer?, seen: [String])? {
        for o in out where o.viewer == key {
            if case .batch(let b) = o.message {
                return (b.elements.withUnsafeBufferPointer { $0.baseAddress.map { UnsafeRawPointer($0) } },
                        b.elements.map { "\($0.key) \($0.frame)" })
            }
        }
        return nil
    }

    @Test func aBatchFillsTheLastOnesArrayOnlyOnceItsMessageIsGone() throws {
        let hub = CollectionHub(model: makeModel(sections: [("a", 40)]), factory: testFactory(), policy: testPolicy(),
                                limits: unlimitedMessages(), seed: 5, epoch: "e1")
        hub.sharesViewStates = false
        for key in UInt64(1)...3 { _ = hub.hello(key, width: 300 + Int(key) * 40, height: 500) }
        let shuffle = #"{"type":"shuffle","section":"a"}"#
        // A message its receiver keeps: the next batch makes an array of its own.
        let kept = hub.send(shuffle, from: 1)
        let first = try #require(batchElements(kept, for: 2))
        #expect(!first.seen.isEmpty)
        var base: UnsafeRawPointer?
        do {
            let second = hub.send(shuffle, from: 1)
            let elements = try #require(batchElements(second, for: 2))
            #expect(elements.base != first.base && !elements.seen.isEmpty)
            base = elements.base
        }
        #expect(batchElements(kept, for: 2)?.seen == first.seen, "the kept message changed")
        // Its message gone, the second batch's array is the third's.
        let third = hub.send(shuffle, from: 1)
        let elements = try #require(batchElements(third, for: 2))
        #expect(!elements.seen.isEmpty && elements.base == base)
    }
}
