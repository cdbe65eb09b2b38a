import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// A hub over sections of items titled by their identifiers (`a0`, `a1`, … in section
/// `a`), with no rate limit: for tests that send two hubs the same session.
func sessionHub(_ sections: [(id: String, count: Int)], policy: any LayoutPolicy = GridOrList(), _ configure: (CollectionHub) -> Void) -> CollectionHub {
    var model = CollectionModel()
    for (id, count) in sections {
        model.snapshot.appendSections([id])
        let ids = (0..<count).map { "\(id)\($0)" }
        model.snapshot.appendItems(ids, toSection: id)
        for item in ids { model.itemContent[item] = ["title": item] }
    }
    var limits = HubLimits()
    limits.messagesPerSecond = 1e9
    limits.messageBurst = 1e9
    let hub = CollectionHub(model: model, factory: testFactory(), policy: policy, limits: limits, seed: 9, epoch: "e1")
    configure(hub)
    return hub
}

/// A random session of hellos, scrolls, resizes, selections, focus, edits of every
/// kind, layout switches, interactive moves and reconnects, sent to hubs `a` and `b`
/// (made alike by ``sessionHub(_:policy:_:)``): every message to every viewer must be
/// the same, byte for byte. Viewer `k` starts `widths(k)` wide and resizes among
/// `widths`' values; it scrolls to the offsets given. `afterEach` runs after each step.
func expectSameSession(_ a: CollectionHub, _ b: CollectionHub, seed: UInt64, viewers: Int, widths: (UInt64) -> Int,
                       offsets: [Int], steps: Int = 400, afterEach: () -> Void = {}) {
    var rng = SplitMix64(seed: seed)
    let sections = a.model.snapshot.sectionIdentifiers
    func both(_ body: (CollectionHub) -> [Outgoing]) {
        let x = body(a), y = body(b)
        // Say where they differ, briefly (the messages themselves are long).
        let firstDifference = x.indices.first { $0 < y.count && (x[$0] != y[$0] || x[$0].bytes != y[$0].bytes) }
            .map { "message \($0) to viewer \(x[$0].viewer): \(x[$0].message.type)" }
        #expect(x.count == y.count && firstDifference == nil, "\(firstDifference ?? "counts \(x.count) vs \(y.count)")")
    }
    let keys = (1...UInt64(viewers)).map { $0 }
    for key in keys {
        both { $0.connect(key); return $0.send(#"{"type":"hello","viewport":{"width":\#(widths(key)),"height":200}}"#, from: key) }
    }
    for _ in 0..<steps {
        let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
        let section = sections[Int.random(in: 0..<sections.count, using: &rng)]
        let item = "\(sections[Int.random(in: 0..<sections.count, using: &rng)])\(Int.random(in: 0..<6, using: &rng))"
        let text: String
        switch Int.random(in: 0..<19, using: &rng) {
        case 0, 1: text = #"{"type":"scroll","offset":{"x":0,"y":\#(offsets[Int.random(in: 0..<offsets.count, using: &rng)])}}"#
        case 2: text = #"{"type":"select","item":"\#(item)","selected":\#(Bool.random(using: &rng))}"#
        case 3: text = Bool.random(using: &rng) ? #"{"type":"focus","item":"\#(item)"}"# : #"{"type":"focus","item":null}"#
        case 4, 5: text = #"{"type":"move","item":"\#(item)","section":"\#(section)"}"#
        case 6, 7: text = #"{"type":"shuffle","section":"\#(section)"}"#
        case 8: text = #"{"type":"insert","section":"\#(section)","count":\#(Int.random(in: 1...3, using: &rng))}"#
        case 9, 10: text = #"{"type":"delete","items":["\#(item)"]}"#
        case 11: text = #"{"type":"reload","items":["\#(item)"]}"#
        case 12: text = #"{"type":"layout","name":"\#(Int.random(in: 0..<4, using: &rng) == 0 ? "list" : "grid")"}"#
        case 13: text = #"{"type":"moveBegin","item":"\#(item)"}"#
        case 14: text = #"{"type":"moveUpdate","x":\#(Int.random(in: 0..<320, using: &rng)),"y":\#(Int.random(in: 0..<500, using: &rng))}"#
        case 15: text = Bool.random(using: &rng) ? #"{"type":"moveEnd"}"# : #"{"type":"moveCancel"}"#
        case 16:
            let width = widths(keys[Int.random(in: 0..<keys.count, using: &rng)])
            text = #"{"type":"scroll","offset":{"x":0,"y":0},"viewport":{"width":\#(width),"height":\#(150 + Int.random(in: 0..<2, using: &rng) * 50)}}"#
        default:
            // Reconnect: the viewer goes and comes back at the top.
            both { hub in
                var out = hub.disconnect(key)
                hub.connect(key)
                out += hub.send(#"{"type":"hello","viewport":{"width":\#(widths(key)),"height":200}}"#, from: key)
                return out
            }
            afterEach()
            continue
        }
        both { $0.send(text, from: key) }
        afterEach()
    }
    #expect(a.model.snapshot == b.model.snapshot)
}
