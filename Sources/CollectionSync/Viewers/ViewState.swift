import CollectionCore
import CollectionProtocol
import Foundation

/// What a viewer sees of the shared collection: a ``CollectionView`` (viewport,
/// flow layout, displayed window, selection) over the shared model, and the window
/// its client holds. Viewers that see exactly the same thing (same layout, viewport
/// and offset, no selection, focus or movement of their own) share one view state
/// until one of them diverges: see `ViewStateSharing.swift`.
final class ViewState {
    let collectionView: CollectionView
    /// What the client's window is made from (the collection view's displayed
    /// elements, their changes, the sizes measured).
    let mirror: CollectionViewMirror
    /// The layout in use, how it was chosen, a transition under way (ViewLayoutChoice.swift).
    private var layouts = ViewLayoutChoice()
    /// The name of the layout in use.
    var layoutName: String {
        get { layouts.name }
        set { layouts.name = newValue }
    }
    /// The layout an interactive transition goes to (nil: none under way).
    var transitionTarget: String? { layouts.transitionTarget }
    /// The last viewport.
    var viewport: Size?
    let dataSource: ModelDataSource
    /// Elements the client holds, by key, as last sent (see `ViewState+Window.swift`).
    /// (Read and written for every changed element of every batch, there, never
    /// across a call out: no run-time exclusivity check.)
    /// Keyed with their hashes worked out once (``HashedString``).
    @exclusivity(unchecked) var entries: [HashedString: WindowEntry] = [:]
    /// The number of the last refresh of the window.
    @exclusivity(unchecked) var pass = 0
    /// What the next batch will read of this state (noted by each refresh of the
    /// window): the hub prefetches it during the three turns before its own.
    @exclusivity(unchecked) var prefetch = PrefetchList()
    /// The arrays of the last refresh's changed elements and removed keys, filled
    /// again by the next once the message that took them is gone (``takeChanged(capacity:)``).
    @exclusivity(unchecked) var lastChanged: [Element] = []
    @exclusivity(unchecked) var lastRemoved: [String] = []
    /// The collection view's display generation the window was built from.
    var windowGeneration = -1
    /// What was last sent for a view is kept on the view itself (its `mirror`),
    /// marked with this number; a new number forgets everything sent.
    var sentGeneration = 0
    /// How many viewers use this state.
    var members = 0
    /// The key this state is offered to other viewers under, if any.
    var registeredKey: SharingKey?
    /// How large a window may be.
    var bound = WindowBound(HubLimits())
    /// How far sections that scroll on their own are scrolled (SectionScrolling.swift).
    private(set) var sectionScrolling = SectionScrolling()
    /// The layout shows elements a window without views does not make (footers,
    /// badges, decorations): the collection view keeps views until the layout changes.
    var needsViews = false
    /// The window's header entries by section, without views (each checked before use).
    @exclusivity(unchecked) var headerEntries: [Int: WindowEntry] = [:]

    init(store: SharedModel) {
        dataSource = ModelDataSource(store: store)
        collectionView = CollectionView(frame: CGRect(x: 0, y: 0, width: 1, height: 1), collectionViewLayout: CollectionViewFlowLayout())
        mirror = collectionView.mirror
        dataSource.register(in: collectionView)
        mirror.appliedUpdatesLimit = 0   // nothing here takes them
        collectionView.dataSource = dataSource
        collectionView.allowsMultipleSelection = true
        collectionView.allowsSelectionDuringEditing = true
        collectionView.allowsMultipleSelectionDuringEditing = true
        collectionView.allowsFocusDuringEditing = true
        collectionView.dropDelegate = store.dropDelegate
        collectionView.delegate = store.delegate
        collectionView.dragDelegate = store.dragDelegate
        collectionView.dragInteractionEnabled = true
        collectionView.allowsFocus = true
        collectionView.isPrefetchingEnabled = false
        showBackground(store.background)
        mirror.keepsNoViews = canDoWithoutViews
    }

    /// Shows `content` as the collection view's background view (nil: none).
    func showBackground(_ content: BackgroundContent?) { collectionView.backgroundView = BackgroundView.view(for: content) }

    /// The background view's element in this state's viewport (``BackgroundView``).
    func backgroundElement() -> Element? { BackgroundView.element(of: collectionView.backgroundView, in: viewport) }

    /// What decides what this state displays, when nothing but that decides it:
    /// nil while the collection view holds one person's state (a selection, say).
    var sharingKey: SharingKey? {
        guard let viewport, !mirror.holdsUserState else { return nil }
        let offset = collectionView.contentOffset
        return SharingKey(layoutName: layoutName, width: viewport.width, height: viewport.height, x: Double(offset.x), y: Double(offset.y),
                          sectionOffsets: sectionScrolling.offsets)
    }

    /// A state of its own for one viewer leaving a shared one: the same layout,
    /// viewport and offset, and the window its client holds now.
    func copy(store: SharedModel, policy: LayoutPolicy) -> ViewState {
        let copy = ViewState(store: store)
        copy.bound = bound
        copy.layoutName = layoutName
        copy.sectionScrolling = sectionScrolling
        let offset = collectionView.contentOffset
        copy.show(viewport: viewport, offset: Point(x: Double(offset.x), y: Double(offset.y)), policy: policy)
        copy.window = window
        return copy
    }

    /// Sets the viewport and scroll offset; the layout follows the policy. The
    /// viewport is laid out at most `bound.maxViewport` each way, and the window
    /// holds at most `bound.maxElements` elements: past that, less is held above
    /// and below the viewport, and past that again, less of the viewport.
    func show(viewport: Size?, offset: Point, policy: LayoutPolicy) {
        defer { applySectionOffsets() }
        if let viewport {
            self.viewport = viewport
            let size = bound.laidOut(viewport)
            adoptLayout(for: LayoutEnvironment(container: size, mode: layoutName), policy: policy, animated: false)
            collectionView.frame = CGRect(x: 0, y: 0, width: size.width, height: size.height)
            // The client holds one screen before and one after the viewport, along the layout's axis.
            mirror.displayMargin = mirror.scrollsHorizontally ? size.width : size.height
        }
        collectionView.contentOffset = CGPoint(x: offset.x, y: offset.y)
        collectionView.layoutIfNeeded()
        if let viewport { bound.fit(mirror, viewport: viewport) }
    }

    /// Takes the client's offsets of sections that scroll on their own (by section
    /// id; 0 forgets one). Unknown ids are refused, and nothing is taken.
    func scrollSections(_ offsets: [String: Double]) throws(ProtocolError) {
        try sectionScrolling.take(offsets, in: dataSource.store.model.snapshot)
    }

    /// Gives the collection view the offsets by the sections' indices now.
    func applySectionOffsets() { sectionScrolling.apply(to: collectionView, in: dataSource.store.model.snapshot) }

    /// The sections that scroll on their own, for messages (nil: none).
    func bands() -> [Band]? { SectionScrolling.bands(of: collectionView, in: dataSource.store.model.snapshot) }

    /// Switches to a new layout built by the policy: `setCollectionViewLayout(_:animated:)`.
    func switchLayout(to name: String, policy: LayoutPolicy) {
        layoutName = name
        guard let viewport else { return }
        adoptLayout(for: LayoutEnvironment(container: bound.laidOut(viewport), mode: name), policy: policy, animated: true)
    }

    /// Gives the collection view the policy's layout for `next` (``ViewLayoutChoice``).
    private func adoptLayout(for next: LayoutEnvironment, policy: LayoutPolicy, animated: Bool) {
        if layouts.adopt(next, policy: policy, animated: animated, in: collectionView) { needsViews = false }
    }

    /// Starts an interactive transition of this state's layout to the layout named
    /// `name` (`startInteractiveTransition(to:completion:)`).
    func beginTransition(to name: String, policy: LayoutPolicy) {
        guard let size = viewport.map(bound.laidOut) else { return }
        layouts.beginTransition(to: name, policy: policy, container: size, progress: 0, in: collectionView)
    }

    /// Moves the transition under way; false when there is none.
    func updateTransition(_ progress: Double) -> Bool { layouts.updateTransition(progress, in: collectionView) }

    /// Ends the transition under way in its target layout (`finish`) or where it
    /// started; false when there is none.
    func endTransition(finish: Bool) -> Bool { layouts.endTransition(finish: finish, in: collectionView) }

    var contentSize: Size {
        let s = collectionView.contentSize
        return Size(width: s.width, height: s.height)
    }

    /// The selected items' identifiers.
    func selection(in model: CollectionModel) -> Set<String> {
        Set((collectionView.indexPathsForSelectedItems ?? []).compactMap { model.snapshot.itemIdentifier(at: $0) })
    }
}

/// How large one viewer's window may be (from ``HubLimits``).
struct WindowBound {
    var maxViewport: Double
    var maxElements: Int

    init(_ limits: HubLimits) {
        maxViewport = limits.maxViewport
        maxElements = limits.maxWindowElements
    }

    /// The size a viewport is laid out at.
    func laidOut(_ viewport: Size) -> Size {
        Size(width: min(viewport.width, maxViewport), height: min(viewport.height, maxViewport))
    }
}

extension WindowBound {
    /// Keeps the window of `mirror`'s collection view (its viewport `viewport`, laid out, and the
    /// margins before and after) to at most ``maxElements`` elements: past that, less
    /// is held above and below the viewport, and past that again, less of the viewport.
    func fit(_ mirror: CollectionViewMirror, viewport: Size) {
        let collectionView = mirror.collectionView
        guard mirror.displayedCount > maxElements else { return }
        // Too many elements: less above and below the viewport, and if the viewport
        // alone holds too many, a shorter window (density need not be even: re-check).
        let horizontal = mirror.scrollsHorizontally
        let height = horizontal ? laidOut(viewport).width : laidOut(viewport).height
        let limit = Double(maxElements)
        mirror.displayMargin = 0
        collectionView.layoutIfNeeded()
        let inView = Double(mirror.displayedCount)
        if inView <= limit {
            var margin = height * (limit / max(inView, 1) - 1) / 2
            for _ in 0..<8 {
                mirror.displayMargin = min(margin, height)
                collectionView.layoutIfNeeded()
                if mirror.displayedCount <= maxElements { return }
                margin /= 2
            }
            mirror.displayMargin = 0
        } else {
            var shown = height
            for _ in 0..<8 where mirror.displayedCount > maxElements {
                shown = max(1, shown * limit / Double(mirror.displayedCount) * 0.9)
                if horizontal { collectionView.frame.size.width = shown } else { collectionView.frame.size.height = shown }
                collectionView.layoutIfNeeded()
            }
        }
        collectionView.layoutIfNeeded()
    }
}

/// Layout, viewport and scroll offset: viewers with equal keys and no state of
/// their own see the same elements at the same frames.
struct SharingKey: Hashable {
    var layoutName: String
    var width: Double
    var height: Double
    var x: Double
    var y: Double
    /// Offsets of sections that scroll on their own, by id.
    var sectionOffsets: [String: Double]
}
