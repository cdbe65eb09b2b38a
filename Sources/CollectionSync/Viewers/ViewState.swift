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
    /// The environment the current layout was made for (nil: not made yet).
    private var environment: LayoutEnvironment?
    /// The name of the layout in use, and the last viewport.
    var layoutName = ""
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
    /// How far sections that scroll on their own are scrolled, by section id, as the
    /// client last said (only offsets past 0).
    private(set) var sectionOffsets: [String: Double] = [:]
    /// The layout this state's interactive transition goes to (nil: none under way).
    private(set) var transitionTarget: String?
    /// The layout shows elements a window without views does not make (footers,
    /// badges, decorations): the collection view keeps views until the layout changes.
    var needsViews = false
    /// The window's header entries by section, without views (each checked before use).
    @exclusivity(unchecked) var headerEntries: [Int: WindowEntry] = [:]

    init(store: SharedModel) {
        dataSource = ModelDataSource(store: store)
        collectionView = CollectionView(frame: CGRect(x: 0, y: 0, width: 1, height: 1), collectionViewLayout: CollectionViewFlowLayout())
        dataSource.register(in: collectionView)
        collectionView.appliedUpdatesLimit = 0   // nothing here takes them
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
        collectionView.keepsNoViews = canDoWithoutViews
    }

    /// Shows `content` as the collection view's background view (nil: none).
    func showBackground(_ content: BackgroundContent?) {
        guard let content else { return collectionView.backgroundView = nil }
        let view = CollectionReusableView(reuseIdentifier: content.template)
        view.content = content.fields
        collectionView.backgroundView = view
    }

    /// The background view's element: the viewport's size at the content's origin
    /// (the client keeps it in place as the content scrolls), behind everything.
    func backgroundElement() -> Element? {
        guard let view = collectionView.backgroundView, let viewport else { return nil }
        return Element(key: Self.backgroundKey, kind: "background", reuse: view.reuseIdentifier, section: 0, item: nil,
                       frame: [0, 0, viewport.width, viewport.height], zIndex: Self.backgroundZIndex, content: view.content)
    }

    static let backgroundKey = "bg"
    static let backgroundZIndex = -1_000

    /// What decides what this state displays, when nothing but that decides it:
    /// nil while the collection view holds one person's state (a selection, say).
    var sharingKey: SharingKey? {
        guard let viewport, !collectionView.holdsUserState else { return nil }
        let offset = collectionView.contentOffset
        return SharingKey(layoutName: layoutName, width: viewport.width, height: viewport.height, x: Double(offset.x), y: Double(offset.y),
                          sectionOffsets: sectionOffsets)
    }

    /// A state of its own for one viewer leaving a shared one: the same layout,
    /// viewport and offset, and the window its client holds now.
    func copy(store: SharedModel, policy: LayoutPolicy) -> ViewState {
        let copy = ViewState(store: store)
        copy.bound = bound
        copy.layoutName = layoutName
        copy.sectionOffsets = sectionOffsets
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
            collectionView.displayMargin = collectionView.scrollsHorizontally ? size.width : size.height
        }
        collectionView.contentOffset = CGPoint(x: offset.x, y: offset.y)
        collectionView.layoutIfNeeded()
        guard collectionView.displayedCount > bound.maxElements, let viewport else { return }
        // Too many elements: less above and below the viewport, and if the viewport
        // alone holds too many, a shorter window (density need not be even: re-check).
        let horizontal = collectionView.scrollsHorizontally
        let height = horizontal ? bound.laidOut(viewport).width : bound.laidOut(viewport).height
        let limit = Double(bound.maxElements)
        collectionView.displayMargin = 0
        collectionView.layoutIfNeeded()
        let inView = Double(collectionView.displayedCount)
        if inView <= limit {
            var margin = height * (limit / max(inView, 1) - 1) / 2
            for _ in 0..<8 {
                collectionView.displayMargin = min(margin, height)
                collectionView.layoutIfNeeded()
                if collectionView.displayedCount <= bound.maxElements { return }
                margin /= 2
            }
            collectionView.displayMargin = 0
        } else {
            var shown = height
            for _ in 0..<8 where collectionView.displayedCount > bound.maxElements {
                shown = max(1, shown * limit / Double(collectionView.displayedCount) * 0.9)
                if horizontal { collectionView.frame.size.width = shown } else { collectionView.frame.size.height = shown }
                collectionView.layoutIfNeeded()
            }
        }
        collectionView.layoutIfNeeded()
    }

    /// Takes the client's offsets of sections that scroll on their own (by section
    /// id; 0 forgets one). Unknown ids are refused, and nothing is taken.
    func scrollSections(_ offsets: [String: Double]) throws(ProtocolError) {
        guard !offsets.isEmpty else { return }
        let snapshot = dataSource.store.model.snapshot
        if let unknown = offsets.keys.sorted().first(where: { snapshot.indexOfSection($0) == nil }) {
            throw ProtocolError(.unknownSection, "'sectionOffsets' names no section with id '\(unknown.prefix(80))'; nothing scrolled")
        }
        for (id, offset) in offsets { sectionOffsets[id] = offset > 0 ? offset : nil }
    }

    /// Gives the collection view the offsets by the sections' indices now (sections
    /// move and go; offsets of gone sections are forgotten).
    func applySectionOffsets() {
        let snapshot = dataSource.store.model.snapshot
        var byIndex: [Int: CGFloat] = [:]
        for (id, offset) in sectionOffsets {
            if let s = snapshot.indexOfSection(id) { byIndex[s] = CGFloat(offset) } else { sectionOffsets[id] = nil }
        }
        // Sections scroll on their own only in some layouts: leave the view alone otherwise.
        if !byIndex.isEmpty || !collectionView.orthogonalScrollOffsets.isEmpty { collectionView.orthogonalScrollOffsets = byIndex }
    }

    /// The sections that scroll on their own, for messages (nil: none).
    func bands() -> [Band]? {
        let regions = collectionView.orthogonalScrollingRegions
        guard !regions.isEmpty else { return nil }
        let snapshot = dataSource.store.model.snapshot
        let offsets = collectionView.orthogonalScrollOffsets
        return regions.compactMap { r in
            guard r.section < snapshot.numberOfSections else { return nil }
            let f = r.frame
            return Band(section: snapshot.sectionIdentifiers[r.section], frame: [Double(f.minX), Double(f.minY), Double(f.width), Double(f.height)],
                        axis: r.scrollsHorizontally ? "x" : "y", length: Double(r.contentLength), behavior: r.behavior.name,
                        pitch: Double(r.groupPitch), offset: Double(offsets[r.section] ?? 0))
        }
    }

    /// Switches to a new layout built by the policy: `setCollectionViewLayout(_:animated:)`.
    func switchLayout(to name: String, policy: LayoutPolicy) {
        layoutName = name
        guard let viewport else { return }
        adoptLayout(for: LayoutEnvironment(container: bound.laidOut(viewport), mode: name), policy: policy, animated: true)
    }

    /// The policy's layout for `environment`: a layout of the policy's own making
    /// (made again only when the environment changes), or the flow layout configured
    /// again (a configuration that changes nothing invalidates nothing).
    private func adoptLayout(for next: LayoutEnvironment, policy: LayoutPolicy, animated: Bool) {
        defer { environment = next }
        if next == environment { return }
        needsViews = false
        // An interactive transition under way: a new viewport starts it again from the
        // new layouts, at the same progress; another layout for everyone ends it.
        let transition = collectionView.transitionLayout.map { (target: transitionTarget, progress: $0.transitionProgress) }
        if transition != nil {
            collectionView.cancelInteractiveTransition()
            transitionTarget = nil
        }
        defer {
            if let transition, let target = transition.target, next.mode == environment?.mode {
                beginTransition(to: target, policy: policy, container: next.container, progress: Double(transition.progress))
            }
        }
        if let made = policy.makeLayout(for: next) {
            // The same mode at the same width (the viewport only grew taller or
            // shorter): the cells measured keep their sizes in the layout made anew,
            // since the client, seeing the same widths, does not measure them again.
            let kept = next.mode == environment?.mode && next.container.width == environment?.container.width
                ? collectionView.selfSizedItems : nil
            collectionView.setCollectionViewLayout(made, animated: animated)
            for (indexPath, size) in kept ?? [:] { collectionView.setMeasuredSize(size, forItemAt: indexPath) }
            return
        }
        if animated || environment == nil || environment?.mode != next.mode || !(collectionView.collectionViewLayout is CollectionViewFlowLayout) {
            let flow = CollectionViewFlowLayout()
            policy.configure(flow, for: next.container, named: next.mode)
            collectionView.setCollectionViewLayout(flow, animated: animated)
        } else if let flow = collectionView.collectionViewLayout as? CollectionViewFlowLayout {
            policy.configure(flow, for: next.container, named: next.mode)
        }
    }

    /// The layout a policy makes for `environment`: its own, or a flow layout it configures.
    private func layout(for environment: LayoutEnvironment, policy: LayoutPolicy) -> CollectionViewLayout {
        if let made = policy.makeLayout(for: environment) { return made }
        let flow = CollectionViewFlowLayout()
        policy.configure(flow, for: environment.container, named: environment.mode)
        return flow
    }

    /// Starts an interactive transition of this state's layout to the layout named
    /// `name` (`startInteractiveTransition(to:completion:)`).
    func beginTransition(to name: String, policy: LayoutPolicy, container: Size? = nil, progress: Double = 0) {
        guard let size = container ?? viewport.map(bound.laidOut) else { return }
        transitionTarget = name
        let transition = collectionView.startInteractiveTransition(to: layout(for: LayoutEnvironment(container: size, mode: name), policy: policy))
        transition.transitionProgress = CGFloat(progress)
    }

    /// Moves the transition under way; false when there is none.
    func updateTransition(_ progress: Double) -> Bool {
        guard let transition = collectionView.transitionLayout else { return false }
        transition.transitionProgress = CGFloat(progress)
        return true
    }

    /// Ends the transition under way in its target layout (`finish`) or where it
    /// started; false when there is none.
    func endTransition(finish: Bool) -> Bool {
        guard collectionView.transitionLayout != nil, let target = transitionTarget else { return false }
        transitionTarget = nil
        guard finish else {
            collectionView.cancelInteractiveTransition()
            return true
        }
        collectionView.finishInteractiveTransition()
        layoutName = target
        if let environment { self.environment = LayoutEnvironment(container: environment.container, mode: target) }
        return true
    }

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
