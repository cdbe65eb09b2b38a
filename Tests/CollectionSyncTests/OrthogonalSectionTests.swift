import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// A carousel of 100-point squares (section "c", scrolling sideways) above a grid of four a row (section "g").
struct CarouselPolicy: LayoutPolicy {
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) {}
    func makeLayout(for environment: LayoutEnvironment) -> CollectionViewLayout? {
        let full = NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .fractionalHeight(1))
        let band = NSCollectionLayoutSection(group: .horizontal(layoutSize: NSCollectionLayoutSize(widthDimension: .absolute(100), heightDimension: .absolute(100)),
                                                                subitems: [NSCollectionLayoutItem(layoutSize: full)]))
        band.orthogonalScrollingBehavior = .groupPaging
        let quarter = NSCollectionLayoutItem(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(0.25), heightDimension: .fractionalHeight(1)))
        let grid = NSCollectionLayoutSection(group: .horizontal(layoutSize: NSCollectionLayoutSize(widthDimension: .fractionalWidth(1), heightDimension: .absolute(100)),
                                                                subitems: [quarter]))
        return CollectionViewCompositionalLayout { section, _ in section == 0 ? band : grid }
    }
}

/// What a client holds: the window, as the messages build it.
struct HeldWindow {
    var keys: Set<String> = []
    var bands: [Band]?
    mutating func take(_ out: [Outgoing], for viewer: UInt64) {
        for o in out where o.viewer == viewer {
            switch o.message {
            case .welcome(let w): keys = Set(w.elements.map(\.key)); bands = w.bands
            case .window(let w): keys.subtract(w.remove); keys.formUnion(w.add.map(\.key)); bands = w.bands
            case .batch(let b): keys.subtract(b.remove); keys.formUnion(b.elements.map(\.key)); bands = b.bands
            default: break
            }
        }
    }
    func cells(_ prefix: String) -> [String] { keys.filter { $0.hasPrefix("i:" + prefix) }.map { String($0.dropFirst(2)) }.sorted { $0.count == $1.count ? $0 < $1 : $0.count < $1.count } }
}

@Suite struct OrthogonalSectionTests {
    func hub() -> CollectionHub {
        var model = CollectionModel()
        model.snapshot.appendSections(["c", "g"])
        for (id, count) in [("c", 10_000), ("g", 40)] {
            let items = (0..<count).map { "\(id)\($0)" }
            model.snapshot.appendItems(items, toSection: id)
            for item in items { model.itemContent[item] = ["title": item] }
        }
        return CollectionHub(model: model, factory: testFactory(), policy: CarouselPolicy())
    }

    func names(_ prefix: String, _ range: ClosedRange<Int>) -> [String] { range.map { "\(prefix)\($0)" } }

    @Test func aViewerScrollsACarouselOfItsOwnAndGetsItsWindow() throws {
        let hub = hub()
        var held = HeldWindow()
        let welcome = try #require(hub.hello(1, width: 400, height: 800))
        held.take([Outgoing(viewer: 1, message: .welcome(welcome))], for: 1)
        // The carousel's scroller: as wide as the viewport, 100 deep; 10,000 squares.
        #expect(welcome.bands == [Band(section: "c", frame: [0, 0, 400, 100], axis: "x", length: 1_000_000, behavior: "groupPaging", pitch: 100, offset: 0)])
        // A screen each side of the 400 points in view: squares 0-7 (nothing left of 0).
        #expect(held.cells("c") == names("c", 0...7))
        held.take(hub.send(#"{"type":"scroll","offset":{"x":0,"y":0},"sectionOffsets":{"c":5000}}"#, from: 1), for: 1)
        // 5,000 - 400 to 5,000 + 800.
        #expect(held.cells("c") == names("c", 46...57))
        #expect(held.bands?.first?.offset == 5_000)
        #expect(held.cells("g").count == 40)   // the grid below (10 rows from y = 100) is as it was
        // Past the end: kept within the content (1,000,000 - 400).
        held.take(hub.send(#"{"type":"scroll","offset":{"x":0,"y":0},"sectionOffsets":{"c":2000000}}"#, from: 1), for: 1)
        #expect(held.bands?.first?.offset == 999_600)
        #expect(held.cells("c") == names("c", 9_992...9_999))
        #expect(held.keys.count < 60)
    }

    @Test func anUnknownSectionIsRefusedAndNothingScrolls() throws {
        let hub = hub()
        _ = hub.hello(1, width: 400, height: 800)
        let out = hub.send(#"{"type":"scroll","offset":{"x":0,"y":0},"sectionOffsets":{"c":5000,"nope":10}}"#, from: 1)
        guard case .error(.unknownSection, let message, nil)? = messages(out, to: 1).first else { Issue.record("expected unknown_section: \(out)"); return }
        #expect(message.contains("'nope'"))
        // c was not scrolled either.
        let next = hub.send(#"{"type":"scroll","offset":{"x":0,"y":1}}"#, from: 1)
        guard case .window(let w)? = messages(next, to: 1).first else { Issue.record("expected window"); return }
        #expect(w.bands?.first?.offset == 0)
        #expect(!w.add.contains { $0.key == "i:c50" })
    }

    @Test func eachViewerKeepsItsOwnOffsetThroughBatches() throws {
        let hub = hub()
        var one = HeldWindow(), two = HeldWindow()
        hub.connect(1)
        one.take(hub.send(#"{"type":"hello","viewport":{"width":400,"height":800}}"#, from: 1), for: 1)
        hub.connect(2)
        two.take(hub.send(#"{"type":"hello","viewport":{"width":400,"height":800}}"#, from: 2), for: 2)
        let scrolled = hub.send(#"{"type":"scroll","offset":{"x":0,"y":0},"sectionOffsets":{"c":5000}}"#, from: 1)
        #expect(messages(scrolled, to: 2).isEmpty)
        one.take(scrolled, for: 1)
        // Viewer 2 deletes squares 0-9: viewer 1 still looks at 4,600-5,800 (now squares 56-67); viewer 2 at the start.
        let ids = (0..<10).map { "\"c\($0)\"" }.joined(separator: ",")
        let out = hub.send(#"{"type":"delete","op":"d","items":[\#(ids)]}"#, from: 2)
        one.take(out, for: 1)
        two.take(out, for: 2)
        #expect(one.cells("c") == names("c", 56...67))
        #expect(one.bands?.first?.offset == 5_000 && one.bands?.first?.length == 999_000)
        #expect(two.cells("c") == names("c", 10...17))
        #expect(two.bands?.first?.offset == 0)
    }
}
