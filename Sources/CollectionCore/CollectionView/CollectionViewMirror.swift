import Foundation

/// Beyond UIKit, which draws its own: what a remote screen needs to draw a collection
/// view. The elements displayed (with their views, or without views only their
/// attributes: ``keepsNoViews``), within a rect grown past the bounds so that the
/// screen holds them before they show; when they changed; the changes applied since
/// last asked and where updated items animate; whether one person's actions gave the
/// collection view state of its own. It takes back what the screen measured (cell
/// sizes). A server's viewer is a mirror of its own collection view.
public struct CollectionViewMirror {
    /// The collection view mirrored.
    public let collectionView: CollectionView

    init(_ collectionView: CollectionView) { self.collectionView = collectionView }

    // MARK: What is displayed

    /// How far past the bounds (along the scrolling axis, each side) elements count
    /// as displayed, so a remote client holds them before they show.
    public var displayMargin: CGFloat {
        get { collectionView.display.margin }
        nonmutating set {
            collectionView.display.margin = newValue
            collectionView.needsDisplayUpdate = true
        }
    }

    /// The bounds grown by ``displayMargin`` along the scrolling axis, and by a screen
    /// each way across it when sections scroll on their own (their neighbouring
    /// cells are held before they scroll into view).
    public var displayRect: CGRect {
        let bounds = collectionView.bounds, margin = collectionView.display.margin
        let across = orthogonalScrollingRegions.isEmpty ? 0 : 1.0
        return scrollsHorizontally ? bounds.insetBy(dx: -margin, dy: -across * bounds.height)
                                   : bounds.insetBy(dx: -across * bounds.width, dy: -margin)
    }

    /// Elements displayed now (inside ``displayRect``), with their views.
    public var displayedElements: [ElementKey: CollectionReusableView] {
        collectionView.layoutIfNeeded()
        return collectionView.display.table
    }

    /// Views waiting in the reuse queues (at most as many as were displayed at once).
    public var reusableViewCount: Int { collectionView.display.reuse.waitingCount }

    /// Goes up whenever the displayed elements, their attributes or content may have
    /// changed: a mirror only needs refreshing then.
    public var displayGeneration: Int { collectionView.displayGeneration }

    /// True while the collection view holds state that one person's actions gave
    /// it: a selection, a highlight, focus (now or remembered), an interactive
    /// movement, measured cell sizes, editing, a transition, a drag or a menu. Two
    /// collection views with equal bounds, layouts and counts and without such state
    /// display the same thing.
    public var holdsUserState: Bool {
        let cv = collectionView
        return !cv.selection.isEmpty || cv.movement != nil || !(cv.selfSizedItems?.isEmpty ?? true) || cv.isEditing
            || cv.interactiveTransition != nil || cv.activeDragSession != nil || cv.contextMenuInteraction?.presentedMenu != nil
    }

    /// True when the layout scrolls along x (a horizontal flow or compositional layout).
    public var scrollsHorizontally: Bool {
        switch collectionView.collectionViewLayout {
        case let flow as CollectionViewFlowLayout: flow.scrollDirection == .horizontal
        case let compositional as CollectionViewCompositionalLayout: compositional.configuration.scrollDirection == .horizontal
        default: false
        }
    }

    // MARK: Sections that scroll on their own

    /// How far each orthogonally scrolling section is scrolled along its own axis, by
    /// section index (UIKit's section scrollers are private). Offsets are kept within
    /// each section's content; the layout's rect queries show the part of the section
    /// its offset brings into view.
    public var orthogonalScrollOffsets: [Int: CGFloat] {
        get { collectionView.orthogonalOffsets }
        nonmutating set {
            let clamped = OrthogonalScrollingRegion.clamped(newValue, to: orthogonalScrollingRegions)
            guard clamped != collectionView.orthogonalOffsets else { return }
            collectionView.orthogonalOffsets = clamped
            collectionView.needsDisplayUpdate = true
        }
    }

    /// The sections that scroll on their own, as the layout has them now.
    public var orthogonalScrollingRegions: [OrthogonalScrollingRegion] {
        collectionView.collectionViewLayout.prepareIfNeeded()
        return collectionView.collectionViewLayout.orthogonalScrollingRegions
    }

    /// Where an element shows in the content: its frame, moved back by its section's
    /// own scroll offset when the section scrolls on its own (frames stay in the
    /// section's unscrolled coordinates; points, as a pointer gives them, do not).
    /// - Parameter attributes: An element's attributes.
    /// - Returns: Its frame as shown.
    public func shownFrame(of attributes: CollectionViewLayoutAttributes) -> CGRect {
        let offsets = collectionView.orthogonalOffsets, section = attributes.indexPath.first ?? 0
        guard !offsets.isEmpty, let offset = offsets[section], offset != 0 else { return attributes.frame }
        let horizontal = orthogonalScrollingRegions.first { $0.section == section }?.scrollsHorizontally ?? true
        return horizontal ? attributes.frame.offsetBy(dx: -offset, dy: 0) : attributes.frame.offsetBy(dx: 0, dy: -offset)
    }

    // MARK: What changed

    /// Most applied changes kept for ``takeAppliedUpdates()``: a view whose owner
    /// never takes them (a server's per-viewer views) keeps no more than this.
    /// 0 keeps none.
    public var appliedUpdatesLimit: Int {
        get { collectionView.updater.log.limit }
        nonmutating set { collectionView.updater.log.limit = newValue }
    }

    /// How many applied changes wait for ``takeAppliedUpdates()`` (at most ``appliedUpdatesLimit``).
    public var appliedUpdateCount: Int { collectionView.updater.log.updates.count }

    /// The changes applied since the last call, oldest first (the last
    /// ``appliedUpdatesLimit`` of them).
    /// - Returns: The changes, oldest first.
    public func takeAppliedUpdates() -> [AppliedUpdate] { collectionView.updater.log.take() }

    /// Where the last batch's displayed inserted items start and its displayed
    /// deleted items end, as the layout said.
    public var lastUpdateAnimations: ItemUpdateAnimations { collectionView.updater.animations }

    /// Applies a batch checked once for many collection views that show the same
    /// data (a server's viewers): a view whose counts are not the ones it was checked
    /// against records and checks it as usual.
    package func performBatchUpdates(_ checked: CheckedBatchUpdate) throws(InvalidBatchUpdate) {
        try collectionView.updater.perform(checked, in: collectionView)
    }

    /// ``CollectionView/tryPerformBatchUpdates(_:completion:)`` of `items`' deletes,
    /// inserts, moves and reloads (its section changes are not performed).
    package func tryPerformItemUpdates(_ items: BatchUpdate) throws(InvalidBatchUpdate) {
        try collectionView.updater.perform(items: items, in: collectionView)
    }

    // MARK: What the screen measured

    /// Records the size a cell's content needs (measured by the client) and lays
    /// out again if it changed. Only with self-sizing (`estimatedItemSize`).
    /// - Parameters:
    ///   - size: The size the client measured.
    ///   - indexPath: The item.
    public func setMeasuredSize(_ size: CGSize, forItemAt indexPath: IndexPath) {
        let cv = collectionView
        guard cv.isValid(indexPath), cv.selfSizedItems?[indexPath] != size else { return }
        cv.display.table[.cell(indexPath)]?.measuredSize = size
        cv.selfSizedItems = cv.selfSizedItems ?? [:]
        cv.selfSizedItems![indexPath] = size
        cv.collectionViewLayout.invalidateLayout()
        cv.needsDisplayUpdate = true
    }

    // MARK: Without views

    /// Whether the collection view keeps no views (false: as UIKit, a view for every
    /// displayed element). A mirror that reads what its layout shows and nothing else
    /// (the server's window of a viewer with no state of its own) has no use for
    /// cells: dequeuing, configuring, re-keying and recycling them was most of a
    /// batch's cost for each viewer. Without views the collection view keeps the
    /// attributes its layout gave for the display rect instead (``shownAttributes``),
    /// and ``displayGeneration`` grows whenever it asked for them again. Selection,
    /// focus, movement and self-sizing need views: whoever turns this on turns it off
    /// first. Turning it on lets go of the displayed views (no `didEndDisplaying`:
    /// the views are not ended, only forgotten); turning it off makes them again at
    /// the next layout pass.
    package var keepsNoViews: Bool {
        get { collectionView.display.viewless }
        nonmutating set {
            guard newValue != collectionView.display.viewless else { return }
            collectionView.display.keepNoViews(newValue)
            collectionView.needsDisplayUpdate = true
        }
    }

    /// Without views: the attributes the layout gave for the display rect, as it last asked.
    package var shownAttributes: [CollectionViewLayoutAttributes] { collectionView.display.shown.attributes }

    /// How many elements are displayed (views, or attributes without them).
    package var displayedCount: Int {
        collectionView.layoutIfNeeded()
        return collectionView.display.count
    }

    /// The attributes the displayed cell of the item at `indexPath` was given (nil: not displayed).
    package func displayedAttributes(ofItemAt indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        collectionView.display.attributes(ofItemAt: indexPath)
    }
}

extension CollectionViewMirror {
    /// Bytes of a collection view object read by a batch: all of it, as the allocator may
    /// hand it out (its size class, or the next one up when a free block is not split).
    package static let collectionViewBytes = 552
    /// Bytes of a reusable view read by a batch (all of a plain cell).
    package static let viewBytes = 256

    /// Notes what a batch reads of this collection view: itself, its displayed
    /// elements, its batch updater and its layout's own. Its displayed views are noted by
    /// whoever goes through them anyway (``add(_:bytes:)`` with
    /// ``viewBytes``): going through them here would retain each.
    package func gatherPrefetch(into list: inout PrefetchList) {
        let cv = collectionView
        list.add(cv, bytes: Self.collectionViewBytes)
        cv.display.gatherPrefetch(into: &list)
        list.add(cv.updater, bytes: BatchUpdater.prefetchBytes)
        cv.collectionViewLayout.gatherPrefetch(into: &list)
    }
}

extension CollectionView {
    /// Beyond UIKit: what a remote screen reads to draw this collection view, and the
    /// sizes it measured (``CollectionViewMirror``).
    public var mirror: CollectionViewMirror { CollectionViewMirror(self) }
}
