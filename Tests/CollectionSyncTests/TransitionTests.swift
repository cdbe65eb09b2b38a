import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// Interactive transitions through the protocol: each viewer's own, frames from the server.
@Suite struct TransitionTests {
    /// Thirty items, grid or list (the layout switch tests' hub).
    func hub() -> CollectionHub { LayoutSwitchTests().makeListHub() }

    func window(_ out: [Outgoing], to key: UInt64) -> ServerMessage.Window? {
        messages(out, to: key).compactMap { if case .window(let w) = $0 { w } else { nil } }.first
    }

    /// Item a1: (110, 20, 100, 100) in the 320-wide grid (three columns under a 20-high
    /// header); (0, 70, 320, 40) in the list (the second row, 10 apart).
    @Test func aViewerFinishesWhileAnotherCancelsAndEachEndsInItsLayout() throws {
        let hub = hub()
        _ = hub.hello(1, width: 320)
        _ = hub.hello(2, width: 320)
        var out = hub.send(#"{"type":"transitionBegin","layout":"list"}"#, from: 1)
        #expect(window(out, to: 1)?.add.isEmpty == true && messages(out, to: 2).isEmpty)
        out = hub.send(#"{"type":"transitionUpdate","progress":0.5}"#, from: 1)
        let half = try #require(window(out, to: 1))
        #expect(!half.animated)
        #expect(half.add.first { $0.key == "i:a1" }?.frame == [55, 45, 210, 70])
        #expect(messages(out, to: 2).isEmpty)   // viewer 2 sees nothing of it

        _ = hub.send(#"{"type":"transitionBegin","layout":"list"}"#, from: 2)
        out = hub.send(#"{"type":"transitionUpdate","progress":0.75}"#, from: 2)
        #expect(window(out, to: 2)?.add.first { $0.key == "i:a1" }?.frame == [27.5, 57.5, 265, 55])
        out = hub.send(#"{"type":"transitionEnd","finish":false}"#, from: 2)
        let cancelled = try #require(window(out, to: 2))
        #expect(cancelled.animated && cancelled.add.first { $0.key == "i:a1" }?.frame == [110, 20, 100, 100])
        #expect(messages(out, to: 2).count == 1)   // no layout message: it stays in the grid

        out = hub.send(#"{"type":"transitionEnd","finish":true}"#, from: 1)
        let finished = try #require(window(out, to: 1))
        #expect(finished.animated && finished.add.first { $0.key == "i:a1" }?.frame == [0, 70, 320, 40])
        #expect(messages(out, to: 1).last == .layout(name: "list", by: "v1"))
        #expect(messages(out, to: 2).isEmpty && hub.layoutName == "grid")

        // Each keeps its layout through a batch.
        out = hub.send(#"{"type":"insert","op":"i","section":"a","count":1}"#, from: 2)
        let batches = [UInt64(1), 2].map { key in messages(out, to: key).compactMap { if case .batch(let b) = $0 { b } else { nil } }.first }
        #expect(batches[0]?.elements.first { $0.key == "i:a1" }?.frame == [0, 120, 320, 40])
        #expect(batches[1]?.elements.first { $0.key == "i:a1" }?.frame == [220, 20, 100, 100])
        // The layout for everyone brings viewer 1 back too.
        out = hub.send(#"{"type":"layout","name":"grid"}"#, from: 2)
        #expect(window(out, to: 1)?.add.first { $0.key == "i:a1" }?.frame == [220, 20, 100, 100])
    }

    @Test func transitionsAreRefusedWhenTheyCannotBe() {
        let hub = hub()
        _ = hub.hello(1)
        func error(_ text: String) -> (ErrorCode, String)? {
            guard case .error(let code, let message, _)? = messages(hub.send(text, from: 1), to: 1).first else { return nil }
            return (code, message)
        }
        #expect(error(#"{"type":"transitionUpdate","progress":0.5}"#)?.0 == .notTransitioning)
        #expect(error(#"{"type":"transitionEnd","finish":true}"#)?.0 == .notTransitioning)
        #expect(error(#"{"type":"transitionBegin","layout":"carousel"}"#)?.1 == "no layout named 'carousel'; expected one of grid, list")
        #expect(error(#"{"type":"transitionBegin","layout":"grid"}"#)?.1 == "this viewer's layout is 'grid' already")
        #expect(error(#"{"type":"transitionUpdate","progress":1.5}"#)?.0 == .badMessage)
        #expect(error(#"{"type":"transitionBegin","layout":"list"}"#) == nil)
        #expect(error(#"{"type":"transitionBegin","layout":"list"}"#)?.1.contains("under way") == true)
    }

    @Test func aResizeKeepsTheTransitionAndALayoutForEveryoneEndsIt() throws {
        let hub = hub()
        _ = hub.hello(1, width: 320)
        _ = hub.hello(2, width: 320)
        _ = hub.send(#"{"type":"transitionBegin","layout":"list"}"#, from: 1)
        _ = hub.send(#"{"type":"transitionUpdate","progress":0.5}"#, from: 1)
        _ = hub.send(#"{"type":"scroll","offset":{"x":0,"y":0},"viewport":{"width":500,"height":200}}"#, from: 1)
        let out = hub.send(#"{"type":"transitionUpdate","progress":1}"#, from: 1)
        #expect(window(out, to: 1)?.add.first { $0.key == "i:a1" }?.frame == [0, 70, 500, 40])
        _ = hub.send(#"{"type":"layout","name":"list"}"#, from: 2)
        guard case .error(.notTransitioning, _, _)? = messages(hub.send(#"{"type":"transitionEnd","finish":true}"#, from: 1), to: 1).first else {
            Issue.record("the switch for everyone did not end the transition")
            return
        }
    }
}
