import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import ExampleLayouts
import Foundation
import Testing

/// The two example layouts of the app's own, through the library to a viewer,
/// against frames worked out by hand.
@Suite(.tags(.integration)) struct ExampleLayoutTests {
    func viewer(of layout: @escaping @Sendable () -> CollectionViewLayout, items: Int, width: Double) async throws -> (TestViewer, CollectionServer) {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "x")
        collection.setLayoutProvider { _ in layout() }
        collection.allowedEdits = .all
        collection.load(DragDropDelegateTests.model((0..<items).map { "p\($0)" }))
        let port = try server.start()
        let v = try await TestViewer.connect(port: port)
        try await v.hello(width: width, height: 600)
        return (v, server)
    }

    @Test func mosaicRowsCycleAndFitTheLastItems() {
        #expect(MosaicLayout.rows(forItems: 1) == [.full])
        #expect(MosaicLayout.rows(forItems: 2) == [.halves])
        #expect(MosaicLayout.rows(forItems: 4) == [.full, .halves, .full])
        #expect(MosaicLayout.rows(forItems: 7) == [.full, .halves, .largeFirst, .full])
        #expect(MosaicLayout.rows(forItems: 11) == [.full, .halves, .largeFirst, .largeLast, .halves])
    }

    @Test func aMosaicPlacesAFullRowThenHalvesThenALargeItemBesideTwo() async throws {
        let (v, server) = try await viewer(of: { MosaicLayout() }, items: 6, width: 400)
        defer { server.stop() }
        // 200-point rows, 2 apart; halves are (400 - 2) / 2; the large item is ⌊398 × 2/3⌋.
        #expect(v.mirror.element(item: "p0")?.frame == [0, 0, 400, 200])
        #expect(v.mirror.element(item: "p1")?.frame == [0, 202, 199, 200])
        #expect(v.mirror.element(item: "p2")?.frame == [201, 202, 199, 200])
        #expect(v.mirror.element(item: "p3")?.frame == [0, 404, 265, 200])
        #expect(v.mirror.element(item: "p4")?.frame == [267, 404, 133, 99])
        #expect(v.mirror.element(item: "p5")?.frame == [267, 505, 133, 99])
        #expect(v.mirror.contentSize == Size(width: 400, height: 604))
    }

    @Test func aWaterfallPutsEachItemInTheShortestColumn() async throws {
        let heights: [CGFloat] = [100, 50, 80, 30, 60]
        let (v, server) = try await viewer(of: { WaterfallLayout(columnWidth: 150) { path, _ in heights[path.item % heights.count] } }, items: 5, width: 400)
        defer { server.stop() }
        // Two columns of (400 - 16 - 8) / 2 = 188.
        #expect(v.mirror.element(item: "p0")?.frame == [8, 8, 188, 100])
        #expect(v.mirror.element(item: "p1")?.frame == [204, 8, 188, 50])
        #expect(v.mirror.element(item: "p2")?.frame == [204, 66, 188, 80])
        #expect(v.mirror.element(item: "p3")?.frame == [8, 116, 188, 30])
        // Both columns end at 154: the leftmost takes it.
        #expect(v.mirror.element(item: "p4")?.frame == [8, 154, 188, 60])
        #expect(v.mirror.contentSize == Size(width: 400, height: 222))
    }

    @Test func aWaterfallsInsertedItemsDropInAndDeletedOnesShrinkOnTheWire() async throws {
        let heights: [CGFloat] = [100, 50, 80, 30, 60]
        let (v, server) = try await viewer(of: { WaterfallLayout(columnWidth: 150) { path, _ in heights[path.item % heights.count] } }, items: 5, width: 400)
        defer { server.stop() }
        // p1 was at [204, 8, 188, 50]: it ends there, a fifth of its size, transparent.
        v.send(#"{"type":"delete","op":"d","items":["p1"]}"#)
        guard case .batch(let deleted) = try await v.next("batch") else { Issue.record("no batch"); return }
        #expect(deleted.disappear == [Pose(key: "i:p1", frame: [204, 8, 188, 50], alpha: 0, transform: [0.2, 0, 0, 0.2, 0, 0])])
        #expect(deleted.appear == nil)
        // A new first item of height 100 lands at [8, 8, 188, 100]: it starts its own height above.
        v.send(#"{"type":"insert","op":"i","section":"s","count":1}"#)
        guard case .batch(let inserted) = try await v.next("batch") else { Issue.record("no batch"); return }
        let id = try #require(inserted.insertedIds.first)
        #expect(inserted.elements.first { $0.key == "i:" + id }?.frame == [8, 8, 188, 100])
        #expect(inserted.appear == [Pose(key: "i:" + id, frame: [8, -92, 188, 100], alpha: 0)])
        #expect(inserted.disappear == nil)
    }

    @Test func aLayoutThatKeepsTheDefaultAnimationsSendsNoPoses() async throws {
        let (v, server) = try await viewer(of: { MosaicLayout() }, items: 6, width: 400)
        defer { server.stop() }
        v.send(#"{"type":"delete","op":"d","items":["p1"]}"#)
        guard case .batch(let deleted) = try await v.next("batch") else { Issue.record("no batch"); return }
        #expect(deleted.deletedIds == ["p1"] && deleted.disappear == nil && deleted.appear == nil)
        v.send(#"{"type":"insert","op":"i","section":"s","count":2}"#)
        guard case .batch(let inserted) = try await v.next("batch") else { Issue.record("no batch"); return }
        #expect(inserted.insertedIds.count == 2 && inserted.appear == nil && inserted.disappear == nil)
    }

    @Test func aWaterfallsRectQueryFindsWhatBruteForceFinds() {
        let layout = WaterfallLayout(columnWidth: 100) { path, width in width * CGFloat(1 + (path.item * 7) % 5) / 3 }
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 700, height: 500), collectionViewLayout: layout)
        let source = CountingSource(counts: [300, 40])
        cv.dataSource = source
        layout.prepareIfNeeded()
        var rng = SplitMix64(seed: 3)
        for _ in 0..<50 {
            let rect = CGRect(x: 0, y: CGFloat(Int.random(in: 0...20_000, using: &rng)), width: 700, height: 500)
            var expected: [IndexPath] = []
            for s in 0..<2 {
                for i in 0..<source.counts[s] {
                    let f = layout.layoutAttributesForItem(at: IndexPath(item: i, section: s))!.frame
                    if f.maxY > rect.minY && f.minY < rect.maxY { expected.append(IndexPath(item: i, section: s)) }
                }
            }
            #expect((layout.layoutAttributesForElements(in: rect) ?? []).map(\.indexPath) == expected)
        }
    }
}

/// Sections of so many plain cells.
final class CountingSource: CollectionViewDataSource {
    let counts: [Int]
    init(counts: [Int]) { self.counts = counts }
    func numberOfSections(in collectionView: CollectionView) -> Int { counts.count }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { counts[section] }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        collectionView.register(CollectionViewCell.self, forCellWithReuseIdentifier: "c")
        return collectionView.dequeueReusableCell(withReuseIdentifier: "c", for: indexPath)
    }
}
