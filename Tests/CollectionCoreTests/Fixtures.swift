import CollectionCore
import Foundation

final class TitleCell: CollectionViewCell {
    var title: String {
        get { content["title"] ?? "" }
        set { content["title"] = newValue }
    }
    var reuseCount = 0
    override func prepareForReuse() {
        super.prepareForReuse()
        reuseCount += 1
    }
}

final class HeaderView: CollectionReusableView {}

/// A data source over an array of sections of strings, recording calls.
final class ArrayDataSource: CollectionViewDataSource {
    var sections: [[String]]
    var movable = true
    var moves: [(IndexPath, IndexPath)] = []
    var cellRequests = 0

    init(_ sections: [[String]]) { self.sections = sections }

    func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { sections[section].count }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        cellRequests += 1
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "title", for: indexPath) as! TitleCell
        cell.title = sections[indexPath.section][indexPath.item]
        return cell
    }
    func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView {
        let view = collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "header", for: indexPath)
        view.content["title"] = "Section \(indexPath.section)"
        return view
    }
    func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool { movable }
    func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        moves.append((sourceIndexPath, destinationIndexPath))
        let item = sections[sourceIndexPath.section].remove(at: sourceIndexPath.item)
        sections[destinationIndexPath.section].insert(item, at: destinationIndexPath.item)
    }
}

/// A delegate that logs what it is told and can say no.
final class RecordingDelegate: CollectionViewDelegate, CollectionViewDataSourcePrefetching {
    var log: [String] = []
    var refuseSelection: Set<IndexPath> = []
    var refuseHighlight: Set<IndexPath> = []
    var refuseFocus: Set<IndexPath> = []
    var prefetched: [[IndexPath]] = []
    var cancelled: [[IndexPath]] = []
    var displayed: Set<IndexPath> = []

    func collectionView(_ cv: CollectionView, shouldHighlightItemAt p: IndexPath) -> Bool { !refuseHighlight.contains(p) }
    func collectionView(_ cv: CollectionView, didHighlightItemAt p: IndexPath) { log.append("highlight \(p.item)") }
    func collectionView(_ cv: CollectionView, didUnhighlightItemAt p: IndexPath) { log.append("unhighlight \(p.item)") }
    func collectionView(_ cv: CollectionView, shouldSelectItemAt p: IndexPath) -> Bool { !refuseSelection.contains(p) }
    func collectionView(_ cv: CollectionView, didSelectItemAt p: IndexPath) { log.append("select \(p.item)") }
    func collectionView(_ cv: CollectionView, didDeselectItemAt p: IndexPath) { log.append("deselect \(p.item)") }
    func collectionView(_ cv: CollectionView, willDisplay cell: CollectionViewCell, forItemAt p: IndexPath) { displayed.insert(p) }
    func collectionView(_ cv: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt p: IndexPath) { displayed.remove(p) }
    func collectionView(_ cv: CollectionView, canFocusItemAt p: IndexPath) -> Bool { !refuseFocus.contains(p) }
    func collectionView(_ cv: CollectionView, prefetchItemsAt indexPaths: [IndexPath]) { prefetched.append(indexPaths) }
    func collectionView(_ cv: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) { cancelled.append(indexPaths) }
}

/// `layout` with 100×50 items and no spacing: three a line in 300 points, line n at y = 50n.
func grid<Layout: CollectionViewFlowLayout>(_ layout: Layout) -> Layout {
    layout.itemSize = CGSize(width: 100, height: 50)
    layout.minimumInteritemSpacing = 0
    layout.minimumLineSpacing = 0
    return layout
}

/// A 300×200 collection view over `sections`: 100×50 items, 3 per line, no spacing
/// between lines (so line n is at y = 50n), 20-point headers.
func makeCollectionView(_ sections: [[String]], delegate: RecordingDelegate? = nil) -> (CollectionView, ArrayDataSource) {
    let layout = grid(CollectionViewFlowLayout())
    layout.headerReferenceSize = CGSize(width: 0, height: 20)
    let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 200), collectionViewLayout: layout)
    cv.register(TitleCell.self, forCellWithReuseIdentifier: "title")
    cv.register(HeaderView.self, forSupplementaryViewOfKind: CollectionView.elementKindSectionHeader, withReuseIdentifier: "header")
    let dataSource = ArrayDataSource(sections)
    cv.dataSource = dataSource
    cv.delegate = delegate
    return (cv, dataSource)
}

/// A 300×200 collection view over sections of 9 and 3 items whose flow layout (no
/// spacing: three 100-point items a line) takes its sizes from `delegate`; prepared.
func makeDelegateSizedFlow<D: CollectionViewDelegateFlowLayout>(_ delegate: D) -> (CollectionView, ArrayDataSource, CollectionViewFlowLayout, D) {
    let layout = CollectionViewFlowLayout()
    layout.minimumInteritemSpacing = 0
    layout.minimumLineSpacing = 0
    let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 200), collectionViewLayout: layout)
    cv.register(TitleCell.self, forCellWithReuseIdentifier: "title")
    let ds = ArrayDataSource([items("a", 9), items("b", 3)])
    cv.dataSource = ds
    cv.delegate = delegate
    layout.prepareIfNeeded()
    return (cv, ds, layout, delegate)
}

/// An item's frame in a flow layout.
func frame(_ layout: CollectionViewFlowLayout, _ p: IndexPath) -> CGRect? { layout.layoutAttributesForItem(at: p)?.frame }

func items(_ prefix: String, _ n: Int) -> [String] { (0..<n).map { "\(prefix)\($0)" } }

func ip(_ item: Int, _ section: Int = 0) -> IndexPath { IndexPath(item: item, section: section) }
