import CollectionCore
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Synchronization
import Testing

/// A hub whose clock is a counter the test moves.
private final class TestClock: Sendable {
    let now = Mutex<Double>(0)
    func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
}

private func hub(limits: HubLimits = HubLimits(), clock: TestClock = TestClock(), sections: [(String, Int)] = [("a", 30), ("b", 30)],
                 name: String = "main") -> CollectionHub {
    var model = CollectionModel()
    for (id, count) in sections {
        model.snapshot.appendSections([id])
        let items = (0..<count).map { "\(id)\($0)" }
        model.snapshot.appendItems(items, toSection: id)
        for item in items { model.itemContent[item] = ["title": item] }
    }
    return CollectionHub(model: model, factory: SerialItemFactory(prefix: name == "main" ? "n" : "\(name)-"), policy: testPolicy(),
                         limits: limits, name: name, clock: { clock.now.withLock { $0 } })
}

private func first(_ out: [Outgoing], to key: UInt64) -> ServerMessage? { messages(out, to: key).first }

/// Issue 16: what the server promises, checked on the hub with no sockets.
@Suite struct PromiseTests {
    @Test func anOpIdReusedForAnotherEditIsRefusedNotTakenForTheFirst() throws {
        let h = hub()
        _ = h.hello(1)
        _ = h.hello(2)
        // Two clients happen to pick the same op id for different edits.
        #expect(first(h.send(#"{"type":"insert","op":"op-7","section":"a","count":2}"#, from: 1), to: 1) == .ack(op: "op-7", seq: 1))
        let clash = h.send(#"{"type":"delete","op":"op-7","items":["b3"]}"#, from: 2)
        guard case .reject("op-7", .opReused, let why)? = first(clash, to: 2) else { Issue.record("expected op_reused, got \(clash)"); return }
        #expect(why.contains("batch 1"))
        #expect(messages(clash, to: 1).isEmpty)                     // reached nobody else
        #expect(h.sequence == 1 && h.model.snapshot.contains(item: "b3"))
        // The second client's edit is not lost: under its own op id it applies.
        #expect(first(h.send(#"{"type":"delete","op":"op-8","items":["b3"]}"#, from: 2), to: 2) == .ack(op: "op-8", seq: 2))
        #expect(!h.model.snapshot.contains(item: "b3"))
        // A true retry (the same edit) still gets its first ack and changes nothing.
        let retry = h.send(#"{"type":"insert","op":"op-7","section":"a","count":2}"#, from: 1)
        #expect(retry.map(\.message) == [.ack(op: "op-7", seq: 1)])
        #expect(h.sequence == 2 && h.model.snapshot.numberOfItems == 61)
    }

    /// Edits refused while decoding, or by the rate limit, are answered by op.
    static let refusedEdits: [(String, ErrorCode)] = [
        (#"{"type":"insert","op":"x","section":"a","count":0}"#, .badMessage),
        (#"{"type":"insert","op":"x","section":"a","count":101}"#, .badMessage),
        (#"{"type":"insert","op":"x","section":"a","count":1.5}"#, .badMessage),
        (#"{"type":"insert","op":"x","section":"a","count":1,"colour":"red"}"#, .badMessage),
        (#"{"type":"shuffle","op":"x","section":"a","ifSeq":-1}"#, .badMessage),
        (#"{"type":"delete","op":"x","items":[]}"#, .badMessage),
        (#"{"type":"delete","op":"x","items":\#((0...1_000).map { "\"a\($0)\"" })}"#, .badMessage),
        (#"{"type":"delete","op":"x","items":["a1","a1"]}"#, .badMessage),
        (#"{"type":"drop","op":"x","x":1,"y":1}"#, .badMessage),
        (#"{"type":"drop","op":"x","x":1,"y":1,"source":{"collection":"main","item":"a1"},"items":[{"kind":"text","value":"t"}]}"#, .badMessage),
        (#"{"type":"moveEnd","op":"x","extra":1}"#, .badMessage),
        (#"{"type":"move","op":"x","item":"a1"}"#, .badMessage),
    ]

    @Test(arguments: refusedEdits)
    func aRefusedEditIsRejectedByItsOp(input: String, code: ErrorCode) throws {
        let h = hub()
        _ = h.hello(1)
        let out = h.send(input, from: 1)
        guard case .reject("x", let got, _)? = first(out, to: 1) else { Issue.record("expected a reject for \(input.prefix(60)): \(out)"); return }
        #expect(got == code)
        #expect(h.sequence == 0)
    }

    @Test func aRateLimitedEditIsRejectedByItsOpAndOtherMessagesGetErrors() {
        var limits = HubLimits()
        limits.messagesPerSecond = 1
        limits.messageBurst = 2
        let h = hub(limits: limits)
        _ = h.hello(1)   // one token
        _ = h.send(#"{"type":"scroll","offset":{"x":0,"y":10}}"#, from: 1)
        let edit = h.send(#"{"type":"shuffle","op":"late","section":"a"}"#, from: 1)
        guard case .reject("late", .rateLimited, _)? = first(edit, to: 1) else { Issue.record("expected a reject: \(edit)"); return }
        guard case .error(.rateLimited, _, nil)? = first(h.send(#"{"type":"scroll","offset":{"x":0,"y":20}}"#, from: 1), to: 1) else {
            Issue.record("expected an error")
            return
        }
        #expect(h.sequence == 0)
    }

    @Test func viewerIdsAreUniqueAcrossTheCollectionsOfAServer() throws {
        let group = CollectionHubGroup([hub(name: "left"), hub(name: "right")])
        var ids: [String] = []
        for key in UInt64(1)...6 {
            group.connect(key)
            let out = group.receive(Array(#"{"type":"hello","viewport":{"width":300,"height":200},"collection":"\#(key % 2 == 0 ? "left" : "right")"}"#.utf8), from: key)
            guard case .welcome(let w)? = first(out, to: key) else { Issue.record("no welcome"); return }
            ids.append(w.viewer.id)
        }
        #expect(Set(ids).count == 6)
    }

    @Test func theHellosNameIsTheViewersDisplayName() throws {
        let h = hub()
        _ = h.hello(1)
        _ = h.endTurn()
        h.connect(2)
        let out = h.send(#"{"type":"hello","viewport":{"width":300,"height":200},"name":"  Ann\u0007  Lee  "}"#, from: 2)
        guard case .welcome(let w)? = first(out, to: 2) else { Issue.record("no welcome"); return }
        #expect(w.viewer.name == "Ann Lee" && w.viewer.id == "v2")
        #expect(messages(h.endTurn(), to: 1) == [.presenceChange(joined: [ViewerInfo(id: "v2", name: "Ann Lee", color: w.viewer.color)], left: [])])
        // A second hello keeps the name it had; a blank name keeps the server's.
        guard case .welcome(let again)? = first(h.send(#"{"type":"hello","viewport":{"width":300,"height":200},"name":"Bob"}"#, from: 2), to: 2) else { return }
        #expect(again.viewer.name == "Ann Lee")
        h.connect(3)
        guard case .welcome(let blank)? = first(h.send(#"{"type":"hello","viewport":{"width":300,"height":200},"name":" \t "}"#, from: 3), to: 3) else { return }
        #expect(blank.viewer.name == "Viewer 3")
    }

    @Test func theItemLimitHoldsForInsertsAndDrops() throws {
        var limits = HubLimits()
        limits.maxItems = 62
        let h = hub(limits: limits)
        h.dropDelegate = ModelDropDelegate()
        _ = h.hello(1)
        #expect(first(h.send(#"{"type":"insert","op":"i1","section":"a","count":2}"#, from: 1), to: 1) == .ack(op: "i1", seq: 1))
        guard case .reject("i2", .refused, let why)? = first(h.send(#"{"type":"insert","op":"i2","section":"a","count":1}"#, from: 1), to: 1) else {
            Issue.record("expected refused")
            return
        }
        #expect(why.contains("limit of 62"))
        let drop = h.send(#"{"type":"drop","op":"d1","x":50,"y":50,"items":[{"kind":"text","value":"one more"}]}"#, from: 1)
        guard case .reject("d1", .refused, _)? = first(drop, to: 1) else { Issue.record("expected refused: \(drop)"); return }
        #expect(h.model.snapshot.numberOfItems == 62 && h.sequence == 1)
    }

    @Test func everyNumberSentFitsCSSAndJavaScript() throws {
        let h = hub()
        _ = h.hello(1)
        let out = h.send(#"{"type":"moveBegin","item":"a1"}"#, from: 1)
        guard case .window(let w)? = first(out, to: 1) else { Issue.record("no window"); return }
        let moving = try #require(w.add.first { $0.key == "i:a1" })
        // Above every other element, and within CSS's 32-bit integers (so JavaScript's safe ones too).
        #expect(moving.zIndex == Element.zIndexBound && Element.zIndexBound == Int(Int32.max))
        let bytes = String(decoding: out[0].bytes, as: UTF8.self)
        #expect(bytes.contains("\"zIndex\":2147483647") && !bytes.contains("4611686018427387903"))
    }

    @Test func aHugeViewportGetsABoundedWindow() throws {
        var limits = HubLimits()
        limits.maxWindowElements = 300
        let h = hub(limits: limits, sections: [("a", 20_000)])
        h.connect(1)
        let out = h.send(#"{"type":"hello","viewport":{"width":100000,"height":100000}}"#, from: 1)
        guard case .welcome(let w)? = first(out, to: 1) else { Issue.record("no welcome"); return }
        #expect(w.elements.count <= 300 && w.elements.count > 100)
        // A scroll with a huge viewport is bounded alike, and so is its answer's size.
        let scrolled = h.send(#"{"type":"scroll","offset":{"x":0,"y":50000},"viewport":{"width":100000,"height":100000}}"#, from: 1)
        guard case .window(let win)? = first(scrolled, to: 1) else { Issue.record("no window"); return }
        #expect(win.add.count <= 300)
        #expect(h.inspect.windowKeys(of: 1).count <= 300)
        // An ordinary viewport keeps its whole window (one screen above and below).
        h.connect(2)
        guard case .welcome(let small)? = first(h.send(#"{"type":"hello","viewport":{"width":320,"height":200}}"#, from: 2), to: 2) else { return }
        #expect(small.elements.filter { $0.kind == "cell" }.count == 12)
    }

    @Test func droppedLinksMustBeHttpHttpsOrMailto() throws {
        let h = hub()
        h.dropDelegate = ModelDropDelegate()
        _ = h.hello(1)
        let bad = h.send(#"{"type":"drop","op":"j","x":50,"y":50,"items":[{"kind":"url","value":" JavaScript:alert(1)"}]}"#, from: 1)
        guard case .reject("j", .badMessage, _)? = first(bad, to: 1) else { Issue.record("expected a refusal: \(bad)"); return }
        #expect(h.sequence == 0)
        // Mixed: the bad link is left out, the good one comes in.
        let mixed = h.send(#"{"type":"drop","op":"m","x":50,"y":50,"items":[{"kind":"url","value":"data:text/html,<b>x"},{"kind":"url","value":"https://example.org/a"}]}"#, from: 1)
        #expect(first(mixed, to: 1) == .ack(op: "m", seq: 1))
        let added = h.model.itemContent.values.filter { $0["kind"] == "url" }
        #expect(added.count == 1 && added.first?["note"] == "https://example.org/a")
        // Text is stored verbatim: it is plain text, drawn as text by every client.
        _ = h.send(#"{"type":"drop","op":"t","x":50,"y":50,"items":[{"kind":"text","value":"<img src=x onerror=alert(1)>"}]}"#, from: 1)
        #expect(h.model.itemContent.values.contains { $0["title"] == "<img src=x onerror=alert(1)>" })
        for link in ["http://a", "HTTPS://b", "mailto:x@y"] { #expect(DroppedLinks.isAllowed(link)) }
        for link in ["javascript:x", "file:///etc", "vbscript:x", "data:x", "no scheme"] { #expect(!DroppedLinks.isAllowed(link)) }
    }

    @Test func aViewersRetainedStateIsBoundedAfterTenThousandBatches() throws {
        var limits = HubLimits()
        limits.replayLogCapacity = 100
        limits.rememberedOps = 50
        limits.messageBurst = 1e9   // the clock stands still: no refill
        limits.outputBurst = 1e12
        let h = hub(limits: limits, sections: [("a", 12), ("b", 30)])
        h.sharesViewStates = false
        for (key, width) in [(UInt64(1), 320), (2, 430), (3, 540), (4, 650)] { _ = h.hello(key, width: width) }
        _ = h.send(#"{"type":"select","item":"b2","selected":true}"#, from: 2)
        var after1k = h.inspect.footprint
        for k in 0..<10_000 {
            _ = h.send(#"{"type":"shuffle","op":"s\#(k)","section":"a"}"#, from: UInt64(k % 4 + 1))
            if k == 999 { after1k = h.inspect.footprint }
        }
        let after10k = h.inspect.footprint
        #expect(h.sequence == 10_000)
        #expect(after10k.appliedUpdates == 0)
        #expect(after10k.rememberedOps == 50)
        #expect(after10k.loggedBatches <= 2 * 100 + 1_024)
        // Views and windows depend on the viewports, not on how many batches came.
        #expect(after10k.views == after1k.views && after10k.windowElements == after1k.windowElements)
        #expect(after10k.presenceEvents == after1k.presenceEvents)
    }

    @Test(arguments: [10, 200])
    func aJoinCostsEveryViewerOneSmallMessageHoweverManyThereAre(viewers: Int) throws {
        let h = hub()
        for key in 1...UInt64(viewers) { _ = h.hello(key) }
        _ = h.endTurn()
        let newcomer = UInt64(viewers + 1)
        let joined = h.hello(newcomer)
        #expect(joined?.viewers.count == viewers + 1)   // the newcomer's welcome lists everyone
        let out = h.endTurn()
        #expect(out.count == viewers)                   // one message per other viewer
        #expect(Set(out.map(\.viewer)).count == viewers && !out.contains { $0.viewer == newcomer })
        let sizes = Set(out.map(\.bytes.count))
        #expect(sizes.count == 1 && sizes.first! < 120)  // the same few bytes for each, at 10 or 200
        guard case .presenceChange(let who, let left) = out[0].message else { Issue.record("not presence"); return }
        #expect(who.map(\.id) == ["v\(newcomer)"] && left.isEmpty)
        // A viewer that joins and leaves within one turn is not mentioned to those who never saw it.
        _ = h.hello(newcomer + 1)
        _ = h.disconnect(newcomer + 1)
        #expect(h.endTurn().isEmpty)
    }

    @Test func aClientWhoseMessagesCostTooMuchIsLimitedWhileOthersGoOn() throws {
        var limits = HubLimits()
        limits.outputBytesPerSecond = 200_000
        limits.outputBurst = 400_000
        let clock = TestClock()
        let h = hub(limits: limits, clock: clock, sections: [("a", 5_000)])
        _ = h.hello(1)
        _ = h.hello(2, width: 320, height: 200)
        // Cheap to send, expensive to answer: a hello with a big viewport, again and again.
        let costly = #"{"type":"hello","viewport":{"width":4000,"height":4000}}"#
        var answered = 0, limited = 0
        for _ in 0..<40 {
            let out = h.send(costly, from: 1)
            if case .error(.rateLimited, let why, _)? = first(out, to: 1) { limited += 1; #expect(why.contains("MiB a second")) } else { answered += 1 }
        }
        // Count-wise these 40 messages are well within 200 a second; cost-wise they are not.
        #expect(answered >= 1 && answered < 40 && limited == 40 - answered)
        // The other viewer is not limited.
        let other = h.send(#"{"type":"scroll","offset":{"x":0,"y":300}}"#, from: 2)
        guard case .window? = first(other, to: 2) else { Issue.record("the other viewer was limited"); return }
        // Later, with its debt paid, the first client may ask again.
        clock.advance(10)
        guard case .welcome? = first(h.send(costly, from: 1), to: 1) else { Issue.record("still limited"); return }
    }
}
