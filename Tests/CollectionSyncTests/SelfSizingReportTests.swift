import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// Rows 40 high by estimate, sized by what the client measures.
struct SelfSizingRows: LayoutPolicy {
    var layoutNames: [String] { ["list", "grid"] }
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) {
        layout.itemSize = CGSize(width: 100, height: 100)
        layout.headerReferenceSize = CGSize(width: 0, height: 20)
    }
    func configure(_ layout: CollectionViewFlowLayout, for size: Size, named name: String) {
        configure(layout, for: size)
        guard name == "list" else { return }
        layout.itemSize = CGSize(width: size.width, height: 40)
        layout.estimatedItemSize = CGSize(width: size.width, height: 40)
        layout.minimumLineSpacing = 0
    }
}

@Suite struct SelfSizingReportTests {
    func makeHub() -> CollectionHub {
        var model = CollectionModel()
        model.snapshot.appendSections(["a"])
        let ids = (0..<100).map { "a\($0)" }
        model.snapshot.appendItems(ids, toSection: "a")
        for id in ids { model.itemContent[id] = ["title": id] }
        return CollectionHub(model: model, factory: testFactory(), policy: SelfSizingRows())
    }

    func window(_ out: [Outgoing]) -> ServerMessage.Window? {
        out.compactMap { if case .window(let w) = $0.message { w } else { nil } }.first
    }

    @Test func measuredSizesShiftTheRowsBelowAndTheTopRowStaysOnScreen() throws {
        let hub = makeHub()
        // Scrolled so that row a20 (y = 20 + 20·40 = 820) is at the top.
        _ = hub.hello(1, width: 300, height: 200, y: 820)
        _ = hub.hello(2, width: 300, height: 200)
        // a2 (above the viewport) and a21 (in it) need 100 points.
        let out = hub.send(#"{"type":"measure","sizes":[{"item":"a2","width":300,"height":100},{"item":"a21","width":300,"height":100}]}"#, from: 1)
        let w = try #require(window(out))
        #expect(out.allSatisfy { $0.viewer == 1 })
        // a2 grew by 60: everything from a3 on moved down 60, and a21 is 100 high.
        #expect(w.add.first { $0.key == "i:a20" }?.frame == [0, 880, 300, 40])
        #expect(w.add.first { $0.key == "i:a21" }?.frame == [0, 920, 300, 100])
        #expect(w.add.first { $0.key == "i:a22" }?.frame == [0, 1020, 300, 40])
        // Scroll anchoring: the client scrolls by the same 60, so a20 stays at the top.
        #expect(w.offset == Point(x: 0, y: 880))
        #expect(w.contentSize.height == 20 + 100 * 40 + 120)
        // The same sizes again change nothing: no invalidation loop.
        #expect(hub.send(#"{"type":"measure","sizes":[{"item":"a21","width":300,"height":100}]}"#, from: 1).isEmpty)
        // Another viewer's layout is its own.
        let other = try #require(hub.send(#"{"type":"scroll","offset":{"x":0,"y":800}}"#, from: 2).compactMap {
            if case .window(let w) = $0.message { w } else { nil }
        }.first)
        #expect(other.add.first { $0.key == "i:a21" }?.frame == [0, 860, 300, 40])
    }

    @Test func measuredSizesFollowTheirItemsThroughBatches() throws {
        let hub = makeHub()
        _ = hub.hello(1, width: 300, height: 400)
        _ = hub.send(#"{"type":"measure","sizes":[{"item":"a3","width":300,"height":90}]}"#, from: 1)
        // a3 moves to the front: it keeps its size there.
        let out = hub.send(#"{"type":"move","item":"a3","section":"a"}"#, from: 1)
        let batch = try #require(out.compactMap { if case .batch(let b) = $0.message, $0.viewer == 1 { b } else { nil } }.first)
        #expect(batch.elements.first { $0.key == "i:a3" }?.frame == [0, 20, 300, 90])
        #expect(batch.elements.first { $0.key == "i:a0" }?.frame == [0, 110, 300, 40])
    }

    @Test func measurementsOutsideSelfSizingOrOfUnknownItemsAreRefused() {
        let hub = makeHub()
        _ = hub.hello(1)
        let model = hub.model
        let unknown = hub.send(#"{"type":"measure","sizes":[{"item":"zz","width":300,"height":90}]}"#, from: 1)
        #expect(unknown == [Outgoing(viewer: 1, message: .error(code: .unknownItem, message: "no item with id 'zz'; no size was used", op: nil))])
        _ = hub.send(#"{"type":"layout","name":"grid"}"#, from: 1)
        let grid = hub.send(#"{"type":"measure","sizes":[{"item":"a1","width":300,"height":90}]}"#, from: 1)
        #expect(grid == [Outgoing(viewer: 1, message: .error(code: .badMessage,
            message: "the 'grid' layout does not size cells by their content; send 'measure' only for self-sizing layouts", op: nil))])
        let empty = hub.send(#"{"type":"measure","sizes":[]}"#, from: 1)
        #expect(empty == [Outgoing(viewer: 1, message: .error(code: .badMessage, message: "field 'sizes' must hold 1 to 500 entries, not 0", op: nil))])
        let extra = hub.send(#"{"type":"measure","sizes":[{"item":"a1","width":300,"height":90,"depth":1}]}"#, from: 1)
        #expect(extra == [Outgoing(viewer: 1, message: .error(code: .badMessage, message: "unknown field 'sizes[0].depth'", op: nil))])
        #expect(hub.model == model)
    }
}

/// A compositional list: full-width rows 40 high by estimate.
struct CompositionalRows: LayoutPolicy {
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) {}
    func makeLayout(for environment: LayoutEnvironment) -> CollectionViewLayout? {
        let row = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .estimated(40))
        let group = NSCollectionLayoutGroup.horizontal(layoutSize: row, subitems: [NSCollectionLayoutItem(layoutSize: row)])
        return CollectionViewCompositionalLayout(section: NSCollectionLayoutSection(group: group))
    }
}

@Suite struct CompositionalSelfSizingTests {
    @Test func estimatedRowsTakeTheMeasuredSizesAndTheTopRowStaysOnScreen() throws {
        var model = CollectionModel()
        model.snapshot.appendSections(["a"])
        let ids = (0..<100).map { "a\($0)" }
        model.snapshot.appendItems(ids, toSection: "a")
        for id in ids { model.itemContent[id] = ["title": id] }
        let hub = CollectionHub(model: model, factory: testFactory(), policy: CompositionalRows())
        // Scrolled so that row a20 (y = 20·40 = 800) is at the top.
        _ = hub.hello(1, width: 300, height: 200, y: 800)
        let out = hub.send(#"{"type":"measure","sizes":[{"item":"a2","width":300,"height":100},{"item":"a21","width":300,"height":100}]}"#, from: 1)
        let w = try #require(out.compactMap { if case .window(let w) = $0.message { w } else { nil } }.first)
        // a2 grew by 60: a20 moved down 60, a21 is 100 high.
        #expect(w.add.first { $0.key == "i:a20" }?.frame == [0, 860, 300, 40])
        #expect(w.add.first { $0.key == "i:a21" }?.frame == [0, 900, 300, 100])
        #expect(w.add.first { $0.key == "i:a22" }?.frame == [0, 1000, 300, 40])
        // The viewer scrolls by the same 60: a20 stays at the top.
        #expect(w.offset == Point(x: 0, y: 860))
        #expect(w.contentSize.height == 4000 + 60 + 60)
    }
}
