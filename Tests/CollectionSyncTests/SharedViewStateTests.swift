import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// Viewers that see exactly the same thing share one view state; the messages must
/// be exactly those of a hub where every viewer has its own.
@Suite struct SharedViewStateTests {
    func makePair() -> (shared: CollectionHub, separate: CollectionHub) {
        func make(_ shares: Bool) -> CollectionHub {
            var model = CollectionModel()
            for (id, count) in [("a", 30), ("b", 30)] {
                model.snapshot.appendSections([id])
                let ids = (0..<count).map { "\(id)\($0)" }
                model.snapshot.appendItems(ids, toSection: id)
                for item in ids { model.itemContent[item] = ["title": item] }
            }
            var limits = HubLimits()
            limits.messagesPerSecond = 1e9
            limits.messageBurst = 1e9
            let hub = CollectionHub(model: model, factory: testFactory(), policy: GridOrList(), limits: limits, seed: 9, epoch: "e1")
            hub.sharesViewStates = shares
            return hub
        }
        return (make(true), make(false))
    }

    @Test func identicalViewersShareUntilOneDivergesAndRejoinWhenEqualAgain() throws {
        let (hub, _) = makePair()
        for key in UInt64(1)...10 { _ = hub.hello(key) }
        _ = hub.hello(11, width: 500)
        #expect(hub.viewStateCount == 2)
        // A selection is one viewer's own: it leaves the shared state.
        _ = hub.send(#"{"type":"select","item":"a1","selected":true}"#, from: 3)
        #expect(hub.viewStateCount == 3)
        #expect(hub.selection(of: 3) == ["a1"] && hub.selection(of: 4).isEmpty)
        // An edit reaches all three states; the shared one's viewers get one message.
        let out = hub.send(#"{"type":"move","item":"a0","section":"a","after":"a2"}"#, from: 1)
        let batches = out.filter { if case .batch = $0.message { true } else { false } }
        #expect(batches.count == 11)
        #expect(Set(batches.filter { $0.viewer != 3 && $0.viewer != 11 }.map(\.bytes)).count == 1)
        #expect(hub.selection(of: 3) == ["a1"])
        // Deselecting leaves nothing of its own: it joins the others again.
        _ = hub.send(#"{"type":"select","item":"a1","selected":false}"#, from: 3)
        #expect(hub.viewStateCount == 2)
        // Scrolling apart and back.
        _ = hub.send(#"{"type":"scroll","offset":{"x":0,"y":300}}"#, from: 5)
        #expect(hub.viewStateCount == 3)
        _ = hub.send(#"{"type":"scroll","offset":{"x":0,"y":0}}"#, from: 5)
        #expect(hub.viewStateCount == 2)
        _ = hub.disconnect(11)
        #expect(hub.viewStateCount == 1)
    }

    /// A random session of hellos, scrolls, selections, focus, edits, layout switches,
    /// interactive moves and reconnects, sent to two hubs: every message to every
    /// viewer is the same, byte for byte, with and without sharing.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func sharingChangesNoMessage(seed: UInt64) throws {
        let (shared, separate) = makePair()
        var rng = SplitMix64(seed: seed)
        var fewestStates = Int.max
        func both(_ body: (CollectionHub) -> [Outgoing]) {
            let a = body(shared), b = body(separate)
            let sameBytes = a.map(\.bytes) == b.map(\.bytes)
            // Say where they differ, briefly (the messages themselves are long).
            let firstDifference = a.indices.first { $0 < b.count && (a[$0] != b[$0] || a[$0].bytes != b[$0].bytes) }.map { "message \($0) to viewer \(a[$0].viewer): \(a[$0].message.type)" }
            #expect(a.count == b.count && firstDifference == nil && sameBytes, "\(firstDifference ?? "counts \(a.count) vs \(b.count) or bytes")")
        }
        let keys = (UInt64(1)...12).map { $0 }
        let widths = [320, 320, 320, 500]
        let offsets = [0, 0, 0, 150, 300]
        for key in keys {
            let width = widths[Int(key) % widths.count]
            both { $0.connect(key); return $0.send(#"{"type":"hello","viewport":{"width":\#(width),"height":200}}"#, from: key) }
        }
        for _ in 0..<400 {
            let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
            let item = "\(["a", "b"][Int.random(in: 0...1, using: &rng)])\(Int.random(in: 0..<30, using: &rng))"
            let text: String
            switch Int.random(in: 0..<14, using: &rng) {
            case 0, 1: text = #"{"type":"scroll","offset":{"x":0,"y":\#(offsets[Int.random(in: 0..<offsets.count, using: &rng)])}}"#
            case 2: text = #"{"type":"select","item":"\#(item)","selected":\#(Bool.random(using: &rng))}"#
            case 3: text = Bool.random(using: &rng) ? #"{"type":"focus","item":"\#(item)"}"# : #"{"type":"focus","item":null}"#
            case 4, 5: text = #"{"type":"move","item":"\#(item)","section":"a"}"#
            case 6: text = #"{"type":"shuffle","section":"b"}"#
            case 7: text = #"{"type":"insert","section":"a","count":2}"#
            case 8: text = #"{"type":"delete","items":["\#(item)"]}"#
            case 9: text = #"{"type":"layout","name":"\#(Bool.random(using: &rng) ? "list" : "grid")"}"#
            case 10: text = #"{"type":"moveBegin","item":"\#(item)"}"#
            case 11: text = #"{"type":"moveUpdate","x":\#(Int.random(in: 0..<320, using: &rng)),"y":\#(Int.random(in: 0..<500, using: &rng))}"#
            case 12: text = Bool.random(using: &rng) ? #"{"type":"moveEnd"}"# : #"{"type":"moveCancel"}"#
            default:
                // Reconnect: the viewer goes and comes back at the top.
                both { hub in
                    var out = hub.disconnect(key)
                    hub.connect(key)
                    out += hub.send(#"{"type":"hello","viewport":{"width":320,"height":200}}"#, from: key)
                    return out
                }
                continue
            }
            both { $0.send(text, from: key) }
            fewestStates = min(fewestStates, shared.viewStateCount)
            #expect(separate.viewStateCount == keys.count)
        }
        #expect(shared.model.snapshot == separate.model.snapshot)
        #expect(fewestStates < keys.count / 2)
    }
}
