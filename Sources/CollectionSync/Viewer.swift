import CollectionCore
import CollectionProtocol
import Foundation

/// One connection's view of the shared collection: a ``CollectionView`` of its own
/// (viewport, flow layout, displayed window, selection) over the shared model.
final class Viewer {
    let key: UInt64
    let info: ViewerInfo
    let collectionView: CollectionView
    let layout = CollectionViewFlowLayout()
    private let dataSource: ModelDataSource
    /// Elements the client holds, by key, as last sent.
    var window: [String: Element] = [:]
    /// The collection view's display generation the window was built from.
    private var windowGeneration = -1
    var ready = false

    init(key: UInt64, info: ViewerInfo, store: ModelStore) {
        self.key = key
        self.info = info
        dataSource = ModelDataSource(store: store)
        collectionView = CollectionView(frame: CGRect(x: 0, y: 0, width: 1, height: 1), collectionViewLayout: layout)
        dataSource.register(in: collectionView)
        collectionView.dataSource = dataSource
        collectionView.allowsMultipleSelection = true
        collectionView.allowsFocus = true
        collectionView.isPrefetchingEnabled = false
    }

    /// Sets the viewport and scroll offset; the layout follows the policy.
    func show(viewport: Size?, offset: Point, policy: LayoutPolicy) {
        if let viewport {
            policy.configure(layout, for: viewport)
            collectionView.frame = CGRect(x: 0, y: 0, width: viewport.width, height: viewport.height)
            // The client holds one screen above and one below the viewport.
            collectionView.displayMargin = viewport.height
        }
        collectionView.contentOffset = CGPoint(x: offset.x, y: offset.y)
        collectionView.layoutIfNeeded()
    }

    var contentSize: Size {
        let s = collectionView.contentSize
        return Size(width: s.width, height: s.height)
    }

    /// The selected items' identifiers.
    func selection(in model: CollectionModel) -> Set<String> {
        Set((collectionView.indexPathsForSelectedItems ?? []).compactMap { model.snapshot.itemIdentifier(at: $0) })
    }

    /// Every displayed element, as the client draws it.
    func currentElements(model: CollectionModel) -> [Element] {
        var elements: [Element] = []
        for (key, view) in collectionView.displayedElements {
            guard let a = view.layoutAttributes, let id = view.content[ModelDataSource.idField] else { continue }
            var content = view.content
            content[ModelDataSource.idField] = nil
            let frame = [Double(a.frame.minX), Double(a.frame.minY), Double(a.frame.width), Double(a.frame.height)]
            switch key {
            case .cell(let p):
                elements.append(Element(key: "i:" + id, kind: "cell", reuse: view.reuseIdentifier, section: p.section, item: p.item,
                                        frame: frame, zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, content: content))
            case .supplementary(let kind, let p) where kind == CollectionView.elementKindSectionHeader:
                content = dataSource.headerContent(forSectionAt: p.section)
                content[ModelDataSource.idField] = nil
                elements.append(Element(key: "h:" + id, kind: "header", reuse: view.reuseIdentifier, section: p.section, item: nil,
                                        frame: frame, zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, content: content))
            default:
                continue
            }
        }
        return elements.sorted { ($0.section, $0.item ?? -1) < ($1.section, $1.item ?? -1) }
    }

    /// Brings the window up to date; returns what changed and what left. Nothing is
    /// rebuilt when the collection view's display has not changed (a scroll within
    /// the same elements, say).
    func refreshWindow(model: CollectionModel, force: Bool = false) -> (changed: [Element], removed: [String]) {
        collectionView.layoutIfNeeded()
        guard force || collectionView.displayGeneration != windowGeneration else { return ([], []) }
        windowGeneration = collectionView.displayGeneration
        return replaceWindow(with: currentElements(model: model))
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
