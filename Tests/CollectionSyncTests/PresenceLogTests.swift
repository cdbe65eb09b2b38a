import CollectionProtocol
import CollectionSync
import Testing

/// The joins and leaves of a turn, alone: what each viewer hears at its end.
struct PresenceLogTests {
    let ana = ViewerInfo(id: "v1", name: "Ana", color: "#111")
    let ben = ViewerInfo(id: "v2", name: "Ben", color: "#222")

    @Test func aViewerHearsTheNetChangeAfterItsMark() {
        var log = PresenceLog()
        #expect(log.isEmpty && log.change(after: 0) == nil)
        log.joined(ana)
        let benMark = log.count
        log.joined(ben)
        log.left("v9")
        // From the start: both joined, v9 left. From Ben's own welcome on: only v9 left.
        #expect(log.change(after: 0) == .presenceChange(joined: [ana, ben], left: ["v9"]))
        #expect(log.change(after: benMark + 1) == .presenceChange(joined: [], left: ["v9"]))
        #expect(log.change(after: log.count) == nil)
    }

    @Test func aViewerWhoCameAndWentWithinTheTurnIsNotMentioned() {
        var log = PresenceLog()
        log.joined(ana)
        log.left("v1")
        #expect(log.change(after: 0) == nil)
        log.removeAll()
        #expect(log.isEmpty && log.count == 0)
    }
}
