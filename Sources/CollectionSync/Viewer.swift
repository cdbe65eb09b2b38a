import CollectionCore
import CollectionProtocol
import Foundation

/// One connection's view of the shared collection: its own viewport, layout,
/// window of elements and selection (UIKit: one collection view per viewer).
final class Viewer {
    let key: UInt64
    let info: ViewerInfo
    var viewport = Size(width: 1, height: 1)
    var offset = Point(x: 0, y: 0)
    let layout = CollectionViewFlowLayout()
    /// Elements the client holds, by key, as last sent.
    var window: [String: Element] = [:]
    var selection: Set<String> = []
    var ready = false

    init(key: UInt64, info: ViewerInfo) {
        self.key = key
        self.info = info
    }

    /// The rect of elements kept in the client: the viewport plus one screen above and below.
    var windowRect: CGRect {
        let margin = viewport.height
        return CGRect(x: offset.x, y: offset.y - margin, width: viewport.width, height: viewport.height + 2 * margin)
    }

    var contentSize: Size {
        let s = layout.collectionViewContentSize
        return Size(width: s.width, height: s.height)
    }

    /// Re-runs the layout for the model's counts and this viewport.
    func prepare(model: CollectionModel, policy: LayoutPolicy) {
        policy.configure(layout, for: viewport)
        layout.prepare(LayoutContext(numberOfItems: model.snapshot.sectionCounts, boundsSize: CGSize(width: viewport.width, height: viewport.height)))
    }

    /// Every element in the window rect now.
    func currentElements(model: CollectionModel) -> [Element] {
        var elements: [Element] = []
        let sections = model.snapshot.sectionIdentifiers
        layout.forEachElement(in: windowRect) { a in
            let sectionID = sections[a.indexPath.section]
            let frame = [Double(a.frame.minX), Double(a.frame.minY), Double(a.frame.width), Double(a.frame.height)]
            if a.representedElementCategory == .cell {
                guard let id = model.snapshot.itemIdentifier(at: a.indexPath) else { return }
                elements.append(Element(
                    key: "i:" + id, kind: "cell", reuse: model.cellReuseIdentifier, section: a.indexPath.section,
                    item: a.indexPath.item, frame: frame, zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden,
                    content: model.itemContent[id] ?? [:]))
            } else if a.representedElementKind == CollectionElementKind.sectionHeader {
                elements.append(Element(
                    key: "h:" + sectionID, kind: "header", reuse: model.headerReuseIdentifier, section: a.indexPath.section,
                    item: nil, frame: frame, zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden,
                    content: ["title": model.sectionTitles[sectionID] ?? sectionID,
                              "count": String(model.snapshot.numberOfItems(inSection: sectionID))]))
            }
        }
        return elements
    }

    /// Replaces the window with `elements`; returns what changed (new or different) and what left.
    func replaceWindow(with elements: [Element]) -> (changed: [Element], removed: [String]) {
        var next: [String: Element] = [:]
        next.reserveCapacity(elements.count)
        var changed: [Element] = []
        for e in elements {
            next[e.key] = e
            if window[e.key] != e { changed.append(e) }
        }
        let removed = window.keys.filter { next[$0] == nil }.sorted()
        window = next
        return (changed, removed)
    }
}
