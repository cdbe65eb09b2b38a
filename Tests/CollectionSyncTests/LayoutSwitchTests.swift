import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// Grid of 100×100 cells, or a list of full-width 40-high rows.
struct GridOrList: LayoutPolicy {
    var layoutNames: [String] { ["grid", "list"] }
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) {
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.headerReferenceSize = CGSize(width: 0, height: 20)
    }
    func configure(_ layout: CollectionViewFlowLayout, for size: Size, named name: String) {
        configure(layout, for: size)
        if name == "list" { layout.itemSize = CGSize(width: size.width, height: 40) }
    }
}

@Suite struct LayoutSwitchTests {
    func makeListHub() -> CollectionHub {
        var model = CollectionModel()
        model.snapshot.appendSections(["a"])
        let ids = (0..<30).map { "a\($0)" }
        model.snapshot.appendItems(ids, toSection: "a")
        for id in ids { model.itemContent[id] = ["title": id] }
        return CollectionHub(model: model, factory: testFactory(), policy: GridOrList())
    }

    @Test func everyViewerSwitchesAnimatedInItsOwnWidthAndNewcomersStartThere() throws {
        let hub = makeListHub()
        _ = hub.hello(1, width: 320)
        _ = hub.hello(2, width: 500)
        let out = hub.send(#"{"type":"layout","name":"list"}"#, from: 1)
        for (key, width) in [(UInt64(1), 320.0), (2, 500.0)] {
            let window = try #require(messages(out, to: key).compactMap { if case .window(let w) = $0 { w } else { nil } }.first)
            #expect(window.animated)
            #expect(window.add.first { $0.key == "i:a1" }?.frame == [0, 70, width, 40])   // second row under a 20-high header
            #expect(messages(out, to: key).last == .layout(name: "list", by: "v1"))
        }
        #expect(hub.sequence == 0 && hub.layoutName == "list")
        let newcomer = try #require(hub.hello(3, width: 400))
        #expect(newcomer.layout == "list")
        #expect(newcomer.elements.first { $0.key == "i:a0" }?.frame == [0, 20, 400, 40])
        // Scrolling and resizing keep the layout.
        _ = hub.send(#"{"type":"scroll","offset":{"x":0,"y":0},"viewport":{"width":300,"height":200}}"#, from: 3)
        #expect(hub.send(#"{"type":"layout","name":"list"}"#, from: 3).isEmpty)
        let back = hub.send(#"{"type":"layout","name":"grid"}"#, from: 3)
        let w3 = try #require(messages(back, to: 3).compactMap { if case .window(let w) = $0 { w } else { nil } }.first)
        #expect(w3.add.first { $0.key == "i:a0" }?.frame == [0, 20, 100, 100])
    }

    @Test func anUnknownLayoutIsRefused() {
        let hub = makeListHub()
        _ = hub.hello(1)
        let out = hub.send(#"{"type":"layout","name":"carousel"}"#, from: 1)
        #expect(out == [Outgoing(viewer: 1, message: .error(code: .badMessage, message: "no layout named 'carousel'; expected one of grid, list", op: nil))])
        #expect(hub.layoutName == "grid")
    }
}
