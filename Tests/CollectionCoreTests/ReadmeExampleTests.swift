import CollectionCore
import Foundation
import Testing

// The example in README.md, kept compiling and checked.
final class PhotoCell: CollectionViewCell {
    override init(frame: CGRect) {
        super.init(frame: frame)
    }
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }

    var title: String {
        get { content["title"] ?? "" }
        set { content["title"] = newValue }
    }
}

final class Photos: CollectionViewDataSource, CollectionViewDelegateFlowLayout {
    var albums: [[String]] = [["IMG_0001", "IMG_0002"], ["IMG_0003"]]

    func numberOfSections(in collectionView: CollectionView) -> Int { albums.count }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { albums[section].count }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "photo", for: indexPath) as! PhotoCell
        cell.title = albums[indexPath.section][indexPath.row]
        return cell
    }
    func collectionView(_ collectionView: CollectionView, layout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
        CGSize(width: 150, height: 150)
    }
}

@Test func readmeExampleWorks() throws {
    let layout = CollectionViewFlowLayout()
    layout.sectionHeadersPinToVisibleBounds = true
    let collectionView = CollectionView(frame: CGRect(x: 0, y: 0, width: 1200, height: 800), collectionViewLayout: layout)
    collectionView.register(PhotoCell.self, forCellWithReuseIdentifier: "photo")
    let photos = Photos()
    collectionView.dataSource = photos
    collectionView.delegate = photos
    #expect(collectionView.visibleCells.count == 3)

    photos.albums[0].insert("IMG_0004", at: 0)
    collectionView.performBatchUpdates {
        collectionView.insertItems(at: [IndexPath(item: 0, section: 0)])
    }
    #expect((collectionView.cellForItem(at: IndexPath(item: 0, section: 0)) as? PhotoCell)?.title == "IMG_0004")
    #expect(collectionView.layoutAttributesForItem(at: IndexPath(item: 2, section: 0))?.frame.size == CGSize(width: 150, height: 150))
}
