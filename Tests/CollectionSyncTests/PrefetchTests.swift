import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

#if canImport(Glibc)
@_silgen_name("malloc_usable_size") private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer) -> Int
#endif

/// Each viewer's prefetch list (what the hub fetches during the previous viewer's
/// turn) holds what its next batch reads, through edits, scrolls and reuse.
@Suite struct PrefetchTests {
    func makeHub() -> CollectionHub {
        let hub = CollectionHub(model: makeModel(sections: [("a", 40), ("b", 40)]), factory: testFactory(), policy: testPolicy(),
                                limits: unlimitedMessages(), seed: 5, epoch: "e1")
        hub.sharesViewStates = false
        return hub
    }

    func expectNoGaps(_ hub: CollectionHub, _ step: String) {
        for key in hub.viewerKeys {
            let gaps = hub.inspect.prefetchCheck(of: key)?.gaps
            #expect(gaps == [], "viewer \(key) after \(step): \(gaps ?? [])")
            #expect((hub.inspect.prefetchCheck(of: key)?.count ?? 0) > 0, "viewer \(key) after \(step): nothing noted")
        }
    }

    @Test func everyViewerNotesWhatItsNextBatchReads() {
        let hub = makeHub()
        for key in UInt64(1)...6 { _ = hub.hello(key, width: 300 + Int(key) * 37, height: 260 + Int(key) * 20) }
        expectNoGaps(hub, "hello")
        let steps: [(String, String)] = [
            ("a move", #"{"type":"move","item":"a0","section":"a","after":"a3"}"#),
            ("a shuffle", #"{"type":"shuffle","section":"a"}"#),
            ("an insert", #"{"type":"insert","section":"a","count":3}"#),
            ("a delete", #"{"type":"delete","items":["a1","a2"]}"#),
            ("a move across sections", #"{"type":"move","item":"b0","section":"a"}"#),
        ]
        for (name, edit) in steps {
            // Each viewer's list is fetched during each of the three turns before its
            // own (in the order of their keys): the second viewer's once, the third's
            // twice, the others' three times.
            let expected = hub.viewerKeys.enumerated().reduce(0) { $0 + min($1.offset, 3) * (hub.inspect.prefetchCheck(of: $1.element)?.count ?? 0) }
            let before = hub.inspect.linesPrefetched
            let out = hub.send(edit, from: 1)
            #expect(hub.inspect.linesPrefetched - before == expected, "\(name)")
            #expect(out.contains { if case .batch = $0.message { true } else { false } }, "\(name) made no batch")
            expectNoGaps(hub, name)
        }
        _ = hub.send(#"{"type":"scroll","offset":{"x":0,"y":900}}"#, from: 2)
        _ = hub.send(#"{"type":"shuffle","section":"b"}"#, from: 1)
        expectNoGaps(hub, "a scroll and a shuffle")
    }

    @Test func aSharedStateIsFetchedOnceABatch() {
        let hub = makeHub()
        hub.sharesViewStates = true
        for key in UInt64(1)...6 { _ = hub.hello(key) }   // one state for all six
        _ = hub.hello(7, width: 500)
        #expect(hub.inspect.viewStateCount == 2)
        let own = hub.inspect.prefetchCheck(of: 7)?.count ?? 0
        let before = hub.inspect.linesPrefetched
        _ = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        // Viewers 2-6 share viewer 1's state, done in viewer 1's turn: only viewer 7's
        // own state is fetched, during each of the three turns before its own.
        #expect(own > 0 && hub.inspect.linesPrefetched - before == 3 * own)
    }

    @Test func aHugeWindowNotesNoMoreThanTheBound() {
        let hub = makeHub()
        _ = hub.hello(1, width: 2000, height: 4000)
        _ = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        #expect(hub.inspect.prefetchCheck(of: 1)?.count == PrefetchList.maxLines)
    }

    #if canImport(Glibc)
    /// The sizes the list notes cover the objects as allocated: a class that grew
    /// past its hint would be fetched in part.
    @Test func theHintsCoverTheObjects() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        let short = hub.inspect.prefetchCheck(of: 1)?.shortfalls { mallocUsableSize(Unmanaged.passUnretained($0).toOpaque()) }
        #expect(short == [])
        // And the check bites: 4 KB for every object is past every hint.
        let tooSmall = hub.inspect.prefetchCheck(of: 1)?.shortfalls { _ in 4096 }
        #expect((tooSmall?.count ?? 0) > 2)
    }
    #endif
}
