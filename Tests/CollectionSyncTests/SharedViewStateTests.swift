import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// Viewers that see exactly the same thing share one view state; the messages must
/// be exactly those of a hub where every viewer has its own.
@Suite struct SharedViewStateTests {
    func makePair() -> (shared: CollectionHub, separate: CollectionHub) {
        let sections = [(id: "a", count: 30), (id: "b", count: 30)]
        return (sessionHub(sections) { $0.sharesViewStates = true }, sessionHub(sections) { $0.sharesViewStates = false })
    }

    @Test func identicalViewersShareUntilOneDivergesAndRejoinWhenEqualAgain() throws {
        let (hub, _) = makePair()
        for key in UInt64(1)...10 { _ = hub.hello(key) }
        _ = hub.hello(11, width: 500)
        #expect(hub.inspect.viewStateCount == 2)
        // A selection is one viewer's own: it leaves the shared state.
        _ = hub.send(#"{"type":"select","item":"a1","selected":true}"#, from: 3)
        #expect(hub.inspect.viewStateCount == 3)
        #expect(hub.inspect.selection(of: 3) == ["a1"] && hub.inspect.selection(of: 4).isEmpty)
        // An edit reaches all three states; the shared one's viewers get one message.
        let out = hub.send(#"{"type":"move","item":"a0","section":"a","after":"a2"}"#, from: 1)
        let batches = out.filter { if case .batch = $0.message { true } else { false } }
        #expect(batches.count == 11)
        #expect(Set(batches.filter { $0.viewer != 3 && $0.viewer != 11 }.map(\.bytes)).count == 1)
        #expect(hub.inspect.selection(of: 3) == ["a1"])
        // Deselecting leaves nothing of its own: it joins the others again.
        _ = hub.send(#"{"type":"select","item":"a1","selected":false}"#, from: 3)
        #expect(hub.inspect.viewStateCount == 2)
        // Scrolling apart and back.
        _ = hub.send(#"{"type":"scroll","offset":{"x":0,"y":300}}"#, from: 5)
        #expect(hub.inspect.viewStateCount == 3)
        _ = hub.send(#"{"type":"scroll","offset":{"x":0,"y":0}}"#, from: 5)
        #expect(hub.inspect.viewStateCount == 2)
        _ = hub.disconnect(11)
        #expect(hub.inspect.viewStateCount == 1)
    }

    /// A random session (``expectSameSession``) sent to two hubs: every message to
    /// every viewer is the same, byte for byte, with and without sharing.
    @Test(arguments: [UInt64(1), 2, 3, 4])
    func sharingChangesNoMessage(seed: UInt64) throws {
        let (shared, separate) = makePair()
        let viewers = 12
        var fewestStates = Int.max
        expectSameSession(shared, separate, seed: seed, viewers: viewers, widths: { [320, 320, 320, 500][Int($0) % 4] }, offsets: [0, 0, 0, 150, 300]) {
            fewestStates = min(fewestStates, shared.inspect.viewStateCount)
            #expect(separate.inspect.viewStateCount == viewers)
        }
        #expect(fewestStates < viewers / 2)
    }
}
