import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// Viewers with no state of their own keep no views: their windows are read from
/// their layouts. The messages must be exactly those of a hub where every viewer's
/// collection view keeps views, as UIKit's does.
@Suite struct ViewlessWindowTests {
    func makePair(sharing: Bool) -> (viewless: CollectionHub, views: CollectionHub) {
        func make(_ keepsViews: Bool) -> CollectionHub {
            var model = CollectionModel()
            for (id, count) in [("a", 30), ("b", 30), ("c", 4)] {
                model.snapshot.appendSections([id])
                let ids = (0..<count).map { "\(id)\($0)" }
                model.snapshot.appendItems(ids, toSection: id)
                for item in ids { model.itemContent[item] = ["title": item] }
            }
            var limits = HubLimits()
            limits.messagesPerSecond = 1e9
            limits.messageBurst = 1e9
            let hub = CollectionHub(model: model, factory: testFactory(), policy: GridOrList(), limits: limits, seed: 9, epoch: "e1")
            hub.keepsViewsForEveryViewer = keepsViews
            hub.sharesViewStates = sharing
            return hub
        }
        return (make(false), make(true))
    }

    @Test func plainViewersKeepNoViewsUntilTheyHoldStateOfTheirOwn() throws {
        let (hub, views) = makePair(sharing: false)
        for key in UInt64(1)...3 {
            _ = hub.hello(key, width: 300 + Int(key) * 10)
            _ = views.hello(key, width: 300 + Int(key) * 10)
        }
        _ = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        _ = views.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        #expect(hub.footprint.views == 0)
        #expect(views.footprint.views > 0)
        #expect(hub.footprint.windowElements == views.footprint.windowElements)
        // A selection is the viewer's own: its collection view keeps views again.
        _ = hub.send(#"{"type":"select","item":"a1","selected":true}"#, from: 2)
        _ = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        #expect(hub.footprint.views > 0)
        _ = hub.send(#"{"type":"select","item":"a1","selected":false}"#, from: 2)
        _ = hub.send(#"{"type":"shuffle","section":"a"}"#, from: 1)
        #expect(hub.footprint.views == 0)
    }

    /// A random session of hellos, scrolls, resizes, selections, focus, edits of every
    /// kind, layout switches (the list keeps views), interactive moves and reconnects,
    /// sent to two hubs: every message to every viewer is the same, byte for byte,
    /// with and without views.
    @Test(arguments: [(UInt64(1), true), (2, false), (3, true), (4, false)])
    func viewsChangeNoMessage(seed: UInt64, sharing: Bool) throws {
        let (viewless, views) = makePair(sharing: sharing)
        var rng = SplitMix64(seed: seed)
        var viewlessSeen = false
        func both(_ body: (CollectionHub) -> [Outgoing]) {
            let a = body(viewless), b = body(views)
            let firstDifference = a.indices.first { $0 < b.count && (a[$0] != b[$0] || a[$0].bytes != b[$0].bytes) }
                .map { "message \($0) to viewer \(a[$0].viewer): \(a[$0].message.type)" }
            #expect(a.count == b.count && firstDifference == nil, "\(firstDifference ?? "counts \(a.count) vs \(b.count)")")
            viewlessSeen = viewlessSeen || viewless.footprint.views < views.footprint.views
        }
        let keys = (UInt64(1)...8).map { $0 }
        for key in keys {
            both { $0.connect(key); return $0.send(#"{"type":"hello","viewport":{"width":\#(300 + Int(key) * 7),"height":200}}"#, from: key) }
        }
        for _ in 0..<400 {
            let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
            let item = "\(["a", "b", "c"][Int.random(in: 0...2, using: &rng)])\(Int.random(in: 0..<4, using: &rng))"
            let section = ["a", "b", "c"][Int.random(in: 0...2, using: &rng)]
            let text: String
            switch Int.random(in: 0..<18, using: &rng) {
            case 0, 1: text = #"{"type":"scroll","offset":{"x":0,"y":\#(Int.random(in: 0..<6, using: &rng) * 90)}}"#
            case 2: text = #"{"type":"select","item":"\#(item)","selected":\#(Bool.random(using: &rng))}"#
            case 3: text = Bool.random(using: &rng) ? #"{"type":"focus","item":"\#(item)"}"# : #"{"type":"focus","item":null}"#
            case 4, 5: text = #"{"type":"move","item":"\#(item)","section":"\#(section)"}"#
            case 6, 7: text = #"{"type":"shuffle","section":"\#(section)"}"#
            case 8: text = #"{"type":"insert","section":"\#(section)","count":\#(Int.random(in: 1...3, using: &rng))}"#
            case 9, 10: text = #"{"type":"delete","items":["\#(item)"]}"#
            case 11: text = #"{"type":"reload","items":["\#(item)"]}"#
            case 12: text = #"{"type":"layout","name":"\#(Int.random(in: 0..<4, using: &rng) == 0 ? "list" : "grid")"}"#
            case 13: text = #"{"type":"moveBegin","item":"\#(item)"}"#
            case 14: text = Bool.random(using: &rng) ? #"{"type":"moveEnd"}"# : #"{"type":"moveCancel"}"#
            case 15: text = #"{"type":"scroll","offset":{"x":0,"y":0},"viewport":{"width":\#(280 + Int.random(in: 0..<60, using: &rng) * 5),"height":\#(150 + Int.random(in: 0..<4, using: &rng) * 50)}}"#
            default:
                both { hub in
                    var out = hub.disconnect(key)
                    hub.connect(key)
                    out += hub.send(#"{"type":"hello","viewport":{"width":320,"height":200}}"#, from: key)
                    return out
                }
                continue
            }
            both { $0.send(text, from: key) }
        }
        #expect(viewless.model.snapshot == views.model.snapshot)
        #expect(viewlessSeen)
    }
}
