import CollectionCore
import CollectionProtocol
import Foundation

/// One connection's view of the shared collection: a ``CollectionView`` of its own
/// (viewport, flow layout, displayed window, selection) over the shared model.
final class Viewer {
    let key: UInt64
    let info: ViewerInfo
    let collectionView: CollectionView
    private(set) var layout = CollectionViewFlowLayout()
    /// The name of the layout in use, and the last viewport.
    var layoutName = ""
    var viewport: Size?
    private let dataSource: ModelDataSource
    /// Elements the client holds, by key, as last sent.
    var window: [String: Element] = [:]
    /// The collection view's display generation the window was built from.
    private var windowGeneration = -1
    /// Per displayed view: the revision and key last sent.
    private var sent: [ObjectIdentifier: SentView] = [:]
    var ready = false
    /// The item this viewer is moving interactively, if any.
    var movement: ViewerMovement?

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
            self.viewport = viewport
            policy.configure(layout, for: viewport, named: layoutName)
            collectionView.frame = CGRect(x: 0, y: 0, width: viewport.width, height: viewport.height)
            // The client holds one screen above and one below the viewport.
            collectionView.displayMargin = viewport.height
        }
        collectionView.contentOffset = CGPoint(x: offset.x, y: offset.y)
        collectionView.layoutIfNeeded()
    }

    /// Switches to a new layout built by the policy: `setCollectionViewLayout(_:animated:)`.
    func switchLayout(to name: String, policy: LayoutPolicy) {
        layoutName = name
        let next = CollectionViewFlowLayout()
        if let viewport { policy.configure(next, for: viewport, named: name) }
        layout = next
        collectionView.setCollectionViewLayout(next, animated: true)
    }

    var contentSize: Size {
        let s = collectionView.contentSize
        return Size(width: s.width, height: s.height)
    }

    /// The selected items' identifiers.
    func selection(in model: CollectionModel) -> Set<String> {
        Set((collectionView.indexPathsForSelectedItems ?? []).compactMap { model.snapshot.itemIdentifier(at: $0) })
    }

    /// The element the client draws for a displayed view (nil for kinds it does not draw).
    func element(for key: ElementKey, _ view: CollectionReusableView) -> Element? {
        guard let a = view.layoutAttributes, let id = view.content[ModelDataSource.idField] else { return nil }
        let frame = [Double(a.frame.minX), Double(a.frame.minY), Double(a.frame.width), Double(a.frame.height)]
        switch key {
        case .cell(let p):
            var content = view.content
            content[ModelDataSource.idField] = nil
            return Element(key: "i:" + id, kind: "cell", reuse: view.reuseIdentifier, section: p.section, item: p.item,
                           frame: frame, zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, content: content)
        case .supplementary(let kind, let p) where kind == CollectionView.elementKindSectionHeader:
            // A header's count changes while its view stays displayed: always from the model.
            var content = dataSource.headerContent(forSectionAt: p.section)
            content[ModelDataSource.idField] = nil
            return Element(key: "h:" + id, kind: "header", reuse: view.reuseIdentifier, section: p.section, item: nil,
                           frame: frame, zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, content: content)
        default:
            return nil
        }
    }

    /// Brings the window up to date; returns what changed (new or different, in
    /// index-path order) and what left. Nothing is rebuilt when the collection view's
    /// display has not changed (a scroll within the same elements, say), and a cell
    /// whose view has not changed since it was sent is not rebuilt either.
    func refreshWindow(model: CollectionModel, force: Bool = false) -> (changed: [Element], removed: [String]) {
        collectionView.layoutIfNeeded()
        guard force || collectionView.displayGeneration != windowGeneration else { return ([], []) }
        windowGeneration = collectionView.displayGeneration
        if force { sent = [:] }
        var nextSent: [ObjectIdentifier: SentView] = [:]
        nextSent.reserveCapacity(sent.count)
        var keys: Set<String> = []
        keys.reserveCapacity(sent.count)
        var changed: [Element] = []
        for (key, view) in collectionView.displayedElements {
            let oid = ObjectIdentifier(view)
            if case .cell = key, let last = sent[oid], last.revision == view.revision {
                nextSent[oid] = last
                keys.insert(last.key)
                continue
            }
            guard let e = element(for: key, view) else { continue }
            nextSent[oid] = SentView(view: view, revision: view.revision, key: e.key)
            keys.insert(e.key)
            if window[e.key] != e {
                window[e.key] = e
                changed.append(e)
            }
        }
        sent = nextSent
        let removed = window.keys.filter { !keys.contains($0) }.sorted()
        for key in removed { window[key] = nil }
        changed.sort { ($0.section, $0.item ?? -1) < ($1.section, $1.item ?? -1) }
        return (changed, removed)
    }
}

/// What the client was last sent for one displayed view. Holding the view keeps its
/// address (the dictionary key) from being reused by another while the entry lives.
struct SentView {
    let view: CollectionReusableView
    var revision: Int
    var key: String
}
