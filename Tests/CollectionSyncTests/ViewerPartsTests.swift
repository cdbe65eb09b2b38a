import CollectionCore
import CollectionProtocol
import CollectionSync
import CollectionTesting
import Foundation
import Testing

/// Drag sessions by id, alone.
struct DragSessionsTests {
    @Test func aSessionIsFoundByIdUntilItEndsAndIdsAreNeverReused() {
        var sessions = DragSessions()
        let a = sessions.open(by: "v1", key: 1)
        let b = sessions.open(by: "v1", key: 1)
        #expect(a != b && a.hasPrefix("v1-"))
        #expect(sessions.owner(of: a) == 1 && sessions.count == 2)
        sessions.close(a)
        #expect(sessions.owner(of: a) == nil && sessions.owner(of: b) == 1)
        let c = sessions.open(by: "v2", key: 2)
        #expect(![a, b].contains(c) && sessions.owner(of: c) == 2)
    }
}

/// The hub's viewers, alone: numbered as they come, walked in key order, and every
/// view state performing a batch, with a copy for each viewer that said hello.
struct HubViewersTests {
    @Test func eachReadyViewerGetsItsOwnCopyOfABatchAndTheOthersFollowSilently() throws {
        let before = makeModel(sections: [("a", 6)])
        let store = SharedModel(before)
        let viewers = HubViewers()
        viewers.numbering.prefix = "n1-"
        for key: UInt64 in [3, 1, 2] { viewers.connect(key, identity: nil, store: store, limits: HubLimits(), layoutName: "grid") }
        #expect(viewers.inOrder().map(\.key) == [1, 2, 3])
        #expect(viewers.inOrder().map(\.info.id) == ["n1-v2", "n1-v3", "n1-v1"], "numbered as they came")
        // Viewers 1 and 2 said hello, at two widths; viewer 3 did not.
        for (key, width) in [(UInt64(1), 320.0), (2, 640)] {
            viewers[key]?.show(viewport: Size(width: width, height: 400), offset: Point(x: 0, y: 0), policy: testPolicy())
            viewers[key]?.ready = true
        }
        #expect(viewers.readyStateCount == 2)
        #expect(viewers[3]?.collectionView.numberOfItems(inSection: 0) == 6, "its counts loaded (and kept)")
        var next = before
        next.snapshot.deleteItems(["a5"])
        next.itemContent["a5"] = nil
        next.snapshot.moveItem("a0", afterItem: "a4")
        store.model = next
        var after = next
        let numbered = try NumberedBatch(from: before, to: &after, reloading: [], seq: 1, by: "n1-v2", sections: next.sectionInfos)
        var out: [Outgoing] = []
        var resumed: [UInt64] = []
        viewers.perform(numbered, into: &out) { viewer in
            resumed.append(viewer.key)
            return []
        }
        #expect(out.map(\.viewer) == [1, 2], "one message each for the viewers that said hello")
        #expect(resumed == [1, 2])
        var frames: [UInt64: [Double]] = [:]
        for o in out {
            guard case .batch(let batch) = o.message else { Issue.record("not a batch: \(o.message)"); continue }
            #expect(batch.seq == 1 && batch.by == "n1-v2")
            // Its window is what the batch told it, in its own layout.
            #expect(Set(batch.elements.map(\.key)) == Set(viewers[o.viewer]?.window.keys ?? [:].keys))
            frames[o.viewer] = batch.elements.first { $0.key == "i:a0" }?.frame
        }
        #expect(frames[1] != nil && frames[2] != nil && frames[1] != frames[2], "a0's frame in each viewer's own width")
        // The viewer that has not said hello performed it too, silently: its kept counts follow.
        #expect(viewers[3]?.collectionView.numberOfItems(inSection: 0) == 5)
    }
}

/// What a viewer's presence messages show: the others always, the sender only its
/// selections (its focus and drag are its page's own), nothing when nothing changed.
struct ViewerPresenceTests {
    @Test func selectionsReachEveryoneFocusAndDragsOnlyTheOthers() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        let select = hub.send(#"{"type":"select","item":"a1","selected":true}"#, from: 1)
        for key: UInt64 in [1, 2] { #expect(messages(select, to: key) == [.selection(viewer: "v1", item: "a1", selected: true)]) }
        #expect(hub.send(#"{"type":"select","item":"a1","selected":true}"#, from: 1).isEmpty, "already selected")
        let range = hub.send(#"{"type":"selectRange","from":"a3","to":"a4","replace":true}"#, from: 1)
        for key: UInt64 in [1, 2] {
            #expect(messages(range, to: key) == [.selections(viewer: "v1", items: ["a1"], selected: false),
                                                 .selections(viewer: "v1", items: ["a3", "a4"], selected: true)])
        }
        let focus = hub.send(#"{"type":"focus","item":"a2"}"#, from: 1)
        #expect(messages(focus, to: 1).isEmpty)
        #expect(messages(focus, to: 2) == [.focus(viewer: "v1", item: "a2")])
        #expect(hub.send(#"{"type":"focus","item":"a2"}"#, from: 1).isEmpty, "already focused")
        let drag = hub.send(#"{"type":"drag","item":"a1","x":150.5,"y":40}"#, from: 1)
        #expect(messages(drag, to: 1).isEmpty)
        guard case let .drag(viewer, item, _, over)? = messages(drag, to: 2).first else { Issue.record("no drag for viewer 2"); return }
        #expect(viewer == "v1" && item == "a1" && over?.item == "a1", "over a1's frame (110, 20, 100 × 100)")
        guard case .error(let code, _, _)? = messages(hub.send(#"{"type":"drag","item":"zz","x":5,"y":5}"#, from: 1), to: 1).first else {
            Issue.record("a drag of an unknown item is not refused"); return
        }
        #expect(code == .unknownItem)
    }
}
