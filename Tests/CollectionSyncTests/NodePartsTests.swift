import CollectionCore
import CollectionProtocol
import CollectionSync
import CollectionTesting
import Foundation
import Testing

/// What a hub knows of other servers' viewers, alone: what each relayed message
/// tells this hub's viewers, and what a silent node takes with it.
struct RemotePresenceTests {
    private let ana = ViewerInfo(id: "n2-v1", name: "Ana", color: "#e4572e")

    @Test func relayedPresenceSaysWhatToTellAndAJoinHeardTwiceTellsNothing() {
        var remote = RemotePresence()
        let snapshot = twoSections().snapshot
        var asked = 0
        let here = { () -> Set<String> in asked += 1; return ["n1-v1"] }
        let join = ServerMessage.presenceChange(joined: [ana, ViewerInfo(id: "n1-v1", name: "Me", color: "#000")], left: [])
        // Only the viewer new to this hub is told of (one of its own came back relayed).
        #expect(remote.receive(join, from: "n2", here: here, in: snapshot) == .tell([.presenceChange(joined: [ana], left: [])]))
        #expect(remote.receive(join, from: "n2", here: here, in: snapshot) == .tell([]))
        #expect(asked == 2 && remote.viewers.map(\.info.id) == ["n2-v1"])
        let select = ServerMessage.selections(viewer: "n2-v1", items: ["a2", "b1"], selected: true)
        #expect(remote.receive(select, from: "n2", here: here, in: snapshot) == .tell([select]))
        // Not presence: nothing to tell; a layout is a switch, not a message; here is not asked.
        #expect(remote.receive(.ack(op: "x", seq: 1), from: "n2", here: here, in: snapshot) == .tell([]))
        #expect(remote.receive(.layout(name: "list", by: "n2-v1"), from: "n2", here: here, in: snapshot) == .switchLayout(name: "list", by: "n2-v1"))
        #expect(asked == 2)
        // Leaving, Ana's selections go first (of items still there), then she leaves.
        var later = snapshot
        later.deleteItems(["b1"])
        #expect(remote.receive(.presenceChange(joined: [], left: ["n2-v1"]), from: "n2", here: here, in: later) == .tell([
            .selections(viewer: "n2-v1", items: ["a2"], selected: false),
            .presenceChange(joined: [], left: ["n2-v1"]),
        ]))
        #expect(remote.viewers.isEmpty)
    }

    @Test func aSilentNodeNamesItsViewers() {
        var remote = RemotePresence()
        let snapshot = twoSections().snapshot
        _ = remote.receive(.presenceChange(joined: [ana], left: []), from: "n2", here: { [] }, in: snapshot)
        #expect(remote.viewers(of: ["n3"]).isEmpty, "another node's")
        #expect(remote.viewers(of: ["n2", "n3"]) == ["n2-v1"])
        _ = remote.receive(.presenceChange(joined: [], left: ["n2-v1"]), from: "", here: { [] }, in: snapshot)
        #expect(remote.viewers(of: ["n2"]).isEmpty, "gone once it left")
    }
}

/// The other nodes an engine has heard from, alone.
struct NodeRosterTests {
    @Test func aNodeIsNewWhenFirstHeardAndAgainOnceForgotten() {
        var roster = NodeRoster()
        let first = roster.heard("n2", at: 1), again = roster.heard("n2", at: 3), other = roster.heard("n3", at: 4)
        #expect(first && !again && other, "new when first heard (announce to it), not when heard again")
        let atThree = roster.forget(silentSince: 3), later = roster.forget(silentSince: 3.5)
        #expect(atThree.isEmpty, "n2 was heard at 3: not silent since")
        #expect(later == ["n2"])
        #expect(roster.lastHeard == ["n3": 4])
        let back = roster.heard("n2", at: 6)
        #expect(back, "back after being forgotten: new again")
        let all = roster.forget(silentSince: 10)
        #expect(all == ["n2", "n3"], "in name order")
    }
}

/// When a node reads again what others committed after a reading failed, alone.
struct CatchUpRetriesTests {
    @Test func retriesDoubleFromHalfASecondToFiveOnePendingPerCollection() {
        var retries = CatchUpRetries()
        let first = retries.failed("photos", waited: nil), second = retries.failed("photos", waited: nil)
        let board = retries.failed("board", waited: nil)
        #expect(first == 0.5 && board == 0.5, "0.5 s at first, per collection")
        #expect(second == nil, "one retry pending")
        var waited = retries.take("photos")
        let again = retries.take("photos")
        #expect(waited == 0.5 && again == nil, "taken once")
        var delays: [Double] = []
        for _ in 0..<5 {
            guard let next = retries.failed("photos", waited: waited) else { break }
            delays.append(next)
            waited = retries.take("photos")
        }
        #expect(delays == [1, 2, 4, 5, 5])
        // A first reading that fails after the retries stopped starts again from 0.5 s.
        let fresh = retries.failed("photos", waited: nil)
        #expect(fresh == 0.5)
    }
}
