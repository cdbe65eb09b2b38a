import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// The background view (UIKit's `backgroundView`): an element of kind `background`,
/// the viewport's size, set by the app or made from the collection after each batch.
@Suite struct BackgroundViewTests {
    func elements(_ out: [Outgoing], to key: UInt64) -> (added: [Element], removed: [String]) {
        var added: [Element] = [], removed: [String] = []
        for m in messages(out, to: key) {
            switch m {
            case .window(let w): added += w.add; removed += w.remove
            case .batch(let b): added += b.elements; removed += b.remove
            case .welcome(let w): added += w.elements
            default: break
            }
        }
        return (added, removed)
    }

    @Test func anEmptyStateComesWithTheLastItemsDeletionAndGoesWithTheNextInsert() throws {
        let hub = makeHub(sections: [("a", 2)])
        let app = TestHubDelegate()
        app.background = { model in
            model.snapshot.numberOfItems == 0 ? BackgroundContent(template: "empty", fields: ["title": "Nothing here"]) : nil
        }
        hub.hubDelegate = app
        _ = hub.setBackgroundFollowsModel(true)
        let welcome = try #require(hub.hello(1, width: 320, height: 200))
        #expect(!welcome.elements.contains { $0.kind == "background" })
        var out = hub.send(#"{"type":"delete","op":"d","items":["a0","a1"]}"#, from: 1)
        let background = try #require(elements(out, to: 1).added.first { $0.kind == "background" })
        #expect(background == Element(key: "bg", kind: "background", reuse: "empty", section: 0, item: nil, frame: [0, 0, 320, 200],
                                      zIndex: -1_000, content: ["title": "Nothing here"]))
        // A newcomer sees it in its welcome, at its own size.
        let late = try #require(hub.hello(2, width: 500, height: 300))
        #expect(late.elements.first { $0.key == "bg" }?.frame == [0, 0, 500, 300])
        // Resizing resizes it.
        out = hub.send(#"{"type":"scroll","offset":{"x":0,"y":0},"viewport":{"width":400,"height":250}}"#, from: 1)
        #expect(elements(out, to: 1).added.first { $0.key == "bg" }?.frame == [0, 0, 400, 250])
        out = hub.send(#"{"type":"insert","op":"i","section":"a","count":1}"#, from: 2)
        #expect(elements(out, to: 1).removed.contains("bg") && elements(out, to: 2).removed.contains("bg"))
    }

    @Test func theAppSetsAndClearsItForEveryViewer() {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2, width: 600)
        var out = hub.setBackgroundView(BackgroundContent(template: "banner", fields: ["title": "Read only today"]))
        for key in [UInt64(1), 2] { #expect(elements(out, to: key).added.map(\.key) == ["bg"]) }
        #expect(hub.currentBackground?.template == "banner")
        #expect(hub.setBackgroundView(BackgroundContent(template: "banner", fields: ["title": "Read only today"])).isEmpty)   // unchanged: nothing sent
        out = hub.setBackgroundView(nil)
        for key in [UInt64(1), 2] { #expect(elements(out, to: key).removed == ["bg"]) }
    }
}
