import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// Presence across nodes, with no sockets: two hubs (one per node) whose relays
/// are carried by hand, as the store's notifications carry them.
@Suite struct NodePresenceTests {
    /// Two hubs of one collection, each numbering its viewers under its node's prefix.
    func pair() -> (CollectionHub, CollectionHub) {
        let a = makeHub(), b = makeHub()
        _ = CollectionHubGroup([a], viewerPrefix: "a-")
        _ = CollectionHubGroup([b], viewerPrefix: "b-")
        return (a, b)
    }

    @Test func whatOneNodesViewersDoReachesTheOtherNodesViewers() throws {
        let (a, b) = pair()
        a.nodes.relaysPresence = true
        _ = b.hello(1)
        _ = a.hello(7)
        // Ana's join, selection and focus are relayed (and only what others should see).
        _ = a.send(#"{"type":"select","item":"a3","selected":true}"#, from: 7)
        _ = a.send(#"{"type":"focus","item":"a4"}"#, from: 7)
        _ = a.send(#"{"type":"scroll","offset":{"x":0,"y":50}}"#, from: 7)
        let relayed = a.nodes.takeRelayed()
        #expect(a.nodes.takeRelayed().isEmpty, "taken once")
        #expect(relayed == [
            .presenceChange(joined: [ViewerInfo(id: "a-v1", name: "Viewer 1", color: "#e4572e")], left: []),
            .selection(viewer: "a-v1", item: "a3", selected: true),
            .focus(viewer: "a-v1", item: "a4"),
        ])
        // On B each reaches B's viewer, as it came; nothing is relayed back.
        b.nodes.relaysPresence = true
        for message in relayed {
            #expect(messages(b.nodes.receiveRelayed(message, from: "a"), to: 1) == [message])
        }
        #expect(b.nodes.takeRelayed().isEmpty, "nothing is relayed back")
        // Heard twice (an announcement after a reconnection), a join changes nothing.
        #expect(b.nodes.receiveRelayed(relayed[0], from: "a").isEmpty)
        // A newcomer on B gets Ana with her selection and focus in its welcome (its
        // own join is relayed, as Ana's was).
        let welcome = try #require(b.hello(2))
        #expect(b.nodes.takeRelayed().map(\.type) == ["presenceChange"])
        #expect(welcome.viewers.map(\.id) == ["b-v1", "b-v2", "a-v1"])
        #expect(welcome.selections == [SelectionInfo(viewer: "a-v1", items: ["a3"])])
        #expect(welcome.focuses == [FocusInfo(viewer: "a-v1", item: "a4")])
    }

    @Test func aSilentNodesViewersLeaveWithTheirSelections() throws {
        let (a, b) = pair()
        a.nodes.relaysPresence = true
        _ = a.hello(7)
        _ = a.send(#"{"type":"select","item":"a3","selected":true}"#, from: 7)
        _ = b.hello(1)
        for message in a.nodes.takeRelayed() { _ = b.nodes.receiveRelayed(message, from: "a") }
        // Another node fallen silent takes no one (when a node falls silent is the
        // engine's NodeRoster's to say; NodeRosterTests).
        #expect(b.nodes.forgetNodes(["c"]).isEmpty)
        let out = b.nodes.forgetNodes(["a"])
        #expect(messages(out, to: 1) == [
            .selections(viewer: "a-v1", items: ["a3"], selected: false),
            .presenceChange(joined: [], left: ["a-v1"]),
        ])
        #expect(try #require(b.hello(2)).viewers.map(\.id) == ["b-v1", "b-v2"])
        #expect(b.nodes.forgetNodes(["a"]).isEmpty, "gone once")
    }

    @Test func anAnnouncementTellsWhoIsHereInPiecesThatFitANotification() throws {
        let (a, b) = pair()
        for key in 1...40 { _ = a.hello(UInt64(key)) }
        _ = a.send(#"{"type":"select","item":"b2","selected":true}"#, from: 3)
        let announcement = a.nodes.presenceAnnouncement()
        // 40 viewers in groups of 16, then viewer 3's selection.
        #expect(announcement.count == 4)
        #expect(announcement.allSatisfy { $0.encoded().count < 7_000 })
        _ = b.hello(100)
        for message in announcement { _ = b.nodes.receiveRelayed(message, from: "a") }
        let welcome = try #require(b.hello(101))
        #expect(welcome.viewers.count == 42)
        #expect(welcome.selections == [SelectionInfo(viewer: "a-v3", items: ["b2"])])
    }

    @Test func aLayoutChosenOnOneNodeIsEveryonesLayout() throws {
        let (a, b) = pair()
        a.policy = GridOrList()
        b.policy = GridOrList()
        a.nodes.relaysPresence = true
        _ = a.hello(7)
        _ = b.hello(1)
        _ = a.send(#"{"type":"layout","name":"list"}"#, from: 7)
        let relayed = a.nodes.takeRelayed()
        #expect(relayed.last == .layout(name: "list", by: "a-v1"))
        let out = messages(b.nodes.receiveRelayed(relayed.last!, from: "a"), to: 1)
        // B's viewer gets its window in the new layout, animated, then the name.
        #expect(out.map(\.type) == ["window", "layout"] && out.last == .layout(name: "list", by: "a-v1"))
        #expect(b.layoutName == "list")
    }
}
