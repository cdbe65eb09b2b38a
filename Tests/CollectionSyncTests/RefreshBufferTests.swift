import CollectionCore
import CollectionProtocol
import CollectionSync
import Testing

/// A refresh fills the last refresh's arrays (changed elements, removed keys) again
/// once the message that took them is gone, and never while a message still holds them.
@Suite struct RefreshBufferTests {
    /// Viewer `key`'s batch in `out`: where its elements lie, and their keys and frames.
    func batchElements(_ out: [Outgoing], for key: UInt64) -> (base: UnsafeRawPointer?, seen: [String])? {
        batchPart(out, for: key) { b in
            (b.elements.withUnsafeBufferPointer { $0.baseAddress.map { UnsafeRawPointer($0) } }, b.elements.map { "\($0.key) \($0.frame)" })
        }
    }

    /// Viewer `key`'s batch in `out`: where its removed keys lie, and the keys.
    func batchRemoved(_ out: [Outgoing], for key: UInt64) -> (base: UnsafeRawPointer?, seen: [String])? {
        batchPart(out, for: key) { b in (b.remove.withUnsafeBufferPointer { $0.baseAddress.map { UnsafeRawPointer($0) } }, b.remove) }
    }

    func batchPart(_ out: [Outgoing], for key: UInt64,
                   _ part: (ServerMessage.Batch) -> (base: UnsafeRawPointer?, seen: [String])) -> (base: UnsafeRawPointer?, seen: [String])? {
        for o in out where o.viewer == key {
            if case .batch(let b) = o.message { return part(b) }
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

    @Test func aBatchFillsTheLastOnesRemovedKeysOnlyOnceItsMessageIsGone() throws {
        let hub = CollectionHub(model: makeModel(sections: [("a", 40)]), factory: testFactory(), policy: testPolicy(),
                                limits: unlimitedMessages(), seed: 5, epoch: "e1")
        hub.sharesViewStates = false
        for key in UInt64(1)...3 { _ = hub.hello(key, width: 300 + Int(key) * 40, height: 300) }
        // Each batch deletes the first item, shown in every window: it leaves them.
        func deleteFirst(_ k: Int) -> [Outgoing] { hub.send(#"{"type":"delete","items":["a\#(k)"]}"#, from: 1) }
        let kept = deleteFirst(0)
        let first = try #require(batchRemoved(kept, for: 2))
        #expect(!first.seen.isEmpty)
        var base: UnsafeRawPointer?
        do {
            let second = deleteFirst(1)
            let removed = try #require(batchRemoved(second, for: 2))
            #expect(removed.base != first.base && !removed.seen.isEmpty)
            base = removed.base
        }
        #expect(batchRemoved(kept, for: 2)?.seen == first.seen, "the kept message changed")
        let third = deleteFirst(2)
        let removed = try #require(batchRemoved(third, for: 2))
        #expect(!removed.seen.isEmpty && removed.base == base)
        #expect(removed.seen != first.seen, "each batch removes its own item")
    }
}
