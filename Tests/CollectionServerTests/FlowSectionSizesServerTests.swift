import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Synchronization
import Testing

/// An app's flow delegate that gives a whole section's sizes at once (beyond UIKit):
/// every item 100 wide, item k 30 + 10k high; it counts the calls of each kind.
final class SectionHeights: LiveCollectionDelegateFlowLayout {
    let sectionCalls = Mutex(0)
    let itemCalls = Mutex(0)
    func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, sizesForItemsInSection section: Int) -> [CGSize]? {
        sectionCalls.withLock { $0 += 1 }
        let count = collectionViewLayout.collectionView?.numberOfItems(inSection: section) ?? 0
        return (0..<count).map { CGSize(width: 100, height: 30 + 10 * Double($0)) }
    }
    func collectionView(_ collectionView: LiveCollection, layout collectionViewLayout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        itemCalls.withLock { $0 += 1 }
        return CGSize(width: 100, height: 10)
    }
}

@Suite(.tags(.integration)) struct FlowSectionSizesServerTests {
    @Test func aViewersFramesComeFromTheSectionsSizes() async throws {
        let server = CollectionServer(configuration: .testing)
        let collection = server.addCollection(named: "t")
        let dataSource = LiveDiffableDataSource<String, String>(collection: collection, cellRegistration: CellRegistration(template: "card") { ["title": $0] })
        collection.setLayoutProvider { _ in
            let layout = CollectionViewFlowLayout()
            layout.minimumInteritemSpacing = 0
            layout.minimumLineSpacing = 0
            return layout
        }
        let delegate = SectionHeights()
        collection.delegate = delegate
        let port = try server.start()
        defer { server.stop() }
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["s"])
        snapshot.appendItems(["a", "b", "c", "d", "e"])
        try await dataSource.apply(snapshot)
        // 200 wide: two items a line. Heights 30, 40 | 50, 60 | 70; each item centred on its line.
        let v = try await TestViewer.connect(port: port)
        try await v.hello(width: 200, height: 600, collection: "t")
        #expect(v.mirror.element(item: "a")?.frame == [0, 5, 100, 30])
        #expect(v.mirror.element(item: "b")?.frame == [100, 0, 100, 40])
        #expect(v.mirror.element(item: "d")?.frame == [100, 40, 100, 60])
        #expect(v.mirror.element(item: "e")?.frame == [0, 100, 100, 70])
        #expect(delegate.sectionCalls.withLock { $0 } > 0 && delegate.itemCalls.withLock { $0 } == 0)
    }
}
