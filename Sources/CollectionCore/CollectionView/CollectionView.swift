import Foundation

/// UIKit's `UICollectionView`, without a screen: it asks its data source for counts
/// and cells, its layout for attributes, keeps selection, focus and the set of
/// displayed elements, and validates batch updates. What UIKit does from touches is
/// in ``interactions``; what a remote screen reads to draw it, in ``mirror``. One per
/// viewer; several can share a data source. Not thread-safe: use each from one thread.
open class CollectionView {
    /// Element kind of flow-layout section headers.
    public static let elementKindSectionHeader = CollectionElementKind.sectionHeader
    /// Element kind of flow-layout section footers.
    public static let elementKindSectionFooter = CollectionElementKind.sectionFooter

    /// Provides counts and cells.
    @exclusivity(unchecked) public weak var dataSource: CollectionViewDataSource? {
        didSet { reloadData() }
    }
    /// Reacts to selection, display, focus and movement.
    @exclusivity(unchecked) public weak var delegate: CollectionViewDelegate? {
        didSet { collectionViewLayout.invalidateLayout() }
    }
    /// Answers drops with proposals and performs them.
    @exclusivity(unchecked) public weak var dropDelegate: CollectionViewDropDelegate?
    /// Decides what drags out of this collection view carry (UIKit's `dragDelegate`).
    @exclusivity(unchecked) public weak var dragDelegate: CollectionViewDragDelegate?
    /// Told which items approach the window.
    @exclusivity(unchecked) public weak var prefetchDataSource: CollectionViewDataSourcePrefetching?
    /// Prefetching on (default) or off.
    @exclusivity(unchecked) public var isPrefetchingEnabled = true

    /// The layout; setting it replaces the layout at once (no animation).
    @exclusivity(unchecked) public var collectionViewLayout: CollectionViewLayout {
        didSet {
            oldValue.collectionView = nil
            attach(collectionViewLayout)
            // Another layout set during an interactive transition ends it.
            if let transition = interactiveTransition, transition.layout !== collectionViewLayout { interactiveTransition = nil }
        }
    }

    /// Frame in its superview (only the size matters here).
    @exclusivity(unchecked) public var frame: CGRect {
        didSet { bounds.size = frame.size }
    }

    /// Visible rectangle in content coordinates: origin is the scroll offset.
    @exclusivity(unchecked) public var bounds: CGRect {
        willSet {
            if collectionViewLayout.shouldInvalidateLayout(forBoundsChange: newValue) {
                collectionViewLayout.invalidateLayout()
            }
        }
        didSet { needsDisplayUpdate = true }
    }

    /// Scroll offset (the bounds' origin).
    public var contentOffset: CGPoint {
        get { bounds.origin }
        set { bounds.origin = newValue }
    }

    /// How quickly items make room during reordering.
    public var reorderingCadence = ReorderingCadence.immediate
    /// Whether cells may invalidate their size.
    public var selfSizingInvalidation = SelfSizingInvalidation.enabled
    /// Whether drag and drop is on.
    public var dragInteractionEnabled = false
    /// A drag started here is under way.
    public internal(set) var hasActiveDrag = false
    /// The drag under way from this collection view (``CollectionViewInteractions/beginDragSession(at:location:)``).
    public internal(set) var activeDragSession: DragSession?
    /// A drop is under way over this view.
    public internal(set) var hasActiveDrop = false
    /// Placeholders are waiting to be committed.
    public internal(set) var hasUncommittedUpdates = false

    // Selection and focus settings (UIKit's defaults).
    /// Items can be selected.
    @exclusivity(unchecked) public var allowsSelection = true
    /// Several items can be selected at once.
    @exclusivity(unchecked) public var allowsMultipleSelection = false { didSet { trimSelectionIfSingle() } }
    /// Items can be selected while editing.
    @exclusivity(unchecked) public var allowsSelectionDuringEditing = false
    /// Several items can be selected while editing.
    @exclusivity(unchecked) public var allowsMultipleSelectionDuringEditing = false { didSet { trimSelectionIfSingle() } }
    /// Editing mode.
    @exclusivity(unchecked) public var isEditing = false {
        didSet {
            trimSelectionIfSingle()
            if isEditing != oldValue { for case let cell as CollectionViewCell in display.table.values { cell.editingState = isEditing } }
        }
    }
    /// Items can take focus.
    @exclusivity(unchecked) public var allowsFocus = false
    /// Items can take focus while editing.
    @exclusivity(unchecked) public var allowsFocusDuringEditing = false
    /// Moving focus selects the focused item.
    @exclusivity(unchecked) public var selectionFollowsFocus = false
    /// Focus comes back to the last focused item.
    public var remembersLastFocusedIndexPath = false

    // MARK: State

    @exclusivity(unchecked) var counts: [Int]?
    // `@exclusivity(unchecked)`: state touched for every viewer on every batch, never
    // through an access held across a call out (ElementDisplay.swift says why).
    /// The displayed elements and their views, the reuse queues, prefetching.
    package let display = ElementDisplay()
    @exclusivity(unchecked) var needsDisplayUpdate = true
    /// The view behind every cell (UIKit's `backgroundView`): as large as the
    /// collection view, not scrolling; an empty state, say. Drawn by the client
    /// from the template named by its reuse identifier, with its content.
    public var backgroundView: CollectionReusableView? {
        didSet { displayGeneration += 1 }
    }
    /// The collection view's context menu (UIKit's `contextMenuInteraction`): nil
    /// until the delegate first gives a menu (``CollectionViewInteractions/presentContextMenu(forItemsAt:point:)``).
    public internal(set) var contextMenuInteraction: ContextMenuInteraction?
    /// The interactive transition under way, and its completion.
    @exclusivity(unchecked) var interactiveTransition: (layout: CollectionViewTransitionLayout, completion: LayoutInteractiveTransitionCompletion?)?
    /// Orthogonal sections' offsets, by section (``CollectionViewMirror/orthogonalScrollOffsets``).
    @exclusivity(unchecked) var orthogonalOffsets: [Int: CGFloat] = [:]
    /// Selection, highlight and focus.
    @exclusivity(unchecked) var selection = ItemSelection()
    @exclusivity(unchecked) var movement: InteractiveMovement?
    /// The focused item (nil when none).
    public var focusedIndexPath: IndexPath? { selection.focused }
    /// Measured sizes reported by self-sizing cells, by index path.
    @exclusivity(unchecked) public internal(set) var selfSizedItems: [IndexPath: CGSize]?
    /// Records, checks and applies batch updates; keeps what was applied for the mirror.
    package let updater = BatchUpdater()
    /// ``CollectionViewMirror/displayGeneration``.
    @exclusivity(unchecked) var displayGeneration = 0
    /// Hears every batch ``performBatchUpdates(_:completion:)`` refuses, with UIKit's
    /// message (nil: the message goes to standard error).
    public var invalidUpdateHandler: ((InvalidBatchUpdate) -> Void)?
    /// The reason the last refused update (a batch, or a single update made outside
    /// `performBatchUpdates`) was refused.
    public internal(set) var lastRejectedUpdate: InvalidBatchUpdate?

    /// Creates a collection view with a frame and a layout.
    /// - Parameters:
    ///   - frame: Its frame; the size is the viewer's viewport.
    ///   - layout: The layout (its `collectionView` becomes this view).
    public init(frame: CGRect, collectionViewLayout layout: CollectionViewLayout) {
        self.frame = frame
        bounds = CGRect(origin: .zero, size: frame.size)
        collectionViewLayout = layout
        attach(layout)
    }

    deinit {
        // The layouts' `collectionView` is not weak: they let go of this view here.
        collectionViewLayout.leave(self)
        interactiveTransition?.layout.leave(self)
    }

    private func attach(_ layout: CollectionViewLayout) {
        layout.collectionView = self
        layout.invalidateLayout()
        needsDisplayUpdate = true
    }

    /// Replaces the layout; `animated` is carried to the client with the next update.
    /// - Parameters:
    ///   - layout: The new layout.
    ///   - animated: Whether the client animates the change.
    ///   - completion: Called with true once the layout is in place.
    public func setCollectionViewLayout(_ layout: CollectionViewLayout, animated: Bool, completion: ((Bool) -> Void)? = nil) {
        // Sizes measured for the old layout's cells do not hold in the new one.
        selfSizedItems = nil
        for view in display.table.values { view.measuredSize = nil }
        collectionViewLayout = layout
        layoutIfNeeded()
        completion?(true)
    }

    // MARK: Counts

    func loadCountsIfNeeded() -> [Int] {
        if let counts { return counts }
        let loaded = fetchCounts()
        counts = loaded
        return loaded
    }

    /// The counts the data source reports now (none without one).
    func fetchCounts() -> [Int] { dataSource?.itemCounts(in: self) ?? [] }

    /// Number of sections (as last loaded from the data source).
    public var numberOfSections: Int { loadCountsIfNeeded().count }

    /// Number of items in `section` (as last loaded; 0 for a section that does not exist).
    /// - Parameter section: The section's index.
    /// - Returns: Its item count.
    public func numberOfItems(inSection section: Int) -> Int {
        let counts = loadCountsIfNeeded()
        return counts.indices.contains(section) ? counts[section] : 0
    }

    /// True when `indexPath` names an existing item.
    func isValid(_ indexPath: IndexPath) -> Bool {
        indexPath.count == 2 && indexPath.section >= 0 && indexPath.item >= 0
            && indexPath.section < numberOfSections && indexPath.item < numberOfItems(inSection: indexPath.section)
    }

    /// Reloads everything from the data source: counts, cells; clears selection and
    /// focus (the last focused index path is kept if asked to remember it). Not animated.
    open func reloadData() {
        counts = nil
        display.removeAll(in: self)
        selection.reset(remembering: remembersLastFocusedIndexPath)
        selfSizedItems = nil
        movement = nil
        collectionViewLayout.invalidateLayout()
        needsDisplayUpdate = true
        updater.keep(AppliedUpdate(kind: .reload, batch: BatchUpdate(), animated: false))
        displayGeneration += 1
    }

    // MARK: Registration and dequeuing

    /// Registers a cell class for a reuse identifier (nil unregisters).
    /// - Parameters:
    ///   - cellClass: The class dequeued cells are made of (nil: none).
    ///   - identifier: The reuse identifier (a client template's name).
    public func register(_ cellClass: CollectionViewCell.Type?, forCellWithReuseIdentifier identifier: String) {
        display.reuse.register(cell: cellClass, for: identifier)
    }

    /// Registers a supplementary view class for a kind and reuse identifier (nil unregisters).
    /// - Parameters:
    ///   - viewClass: The class dequeued views are made of (nil: none).
    ///   - elementKind: The kind of element (a header, a footer, a layout's own).
    ///   - identifier: The reuse identifier.
    public func register(_ viewClass: CollectionReusableView.Type?, forSupplementaryViewOfKind elementKind: String, withReuseIdentifier identifier: String) {
        display.reuse.register(supplementary: viewClass, kind: elementKind, identifier: identifier)
    }

    /// A cell for `indexPath`: a reused one or a new one of the registered class.
    /// An unregistered identifier stops the program with UIKit's message.
    /// - Parameters:
    ///   - identifier: A registered reuse identifier.
    ///   - indexPath: The item the cell is for.
    /// - Returns: A cell ready to configure.
    public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> CollectionViewCell {
        guard let cell = display.dequeueCell(identifier) else { ReusePool.unregistered("UICollectionElementKindCell", identifier) }
        return cell
    }

    /// A supplementary view for `indexPath`; an unregistered kind and identifier stops the program.
    /// - Parameters:
    ///   - elementKind: The kind of element.
    ///   - identifier: A reuse identifier registered for that kind.
    ///   - indexPath: The element's place.
    /// - Returns: A view ready to configure.
    public func dequeueReusableSupplementaryView(ofKind elementKind: String, withReuseIdentifier identifier: String, for indexPath: IndexPath) -> CollectionReusableView {
        guard let view = display.dequeueSupplementary(elementKind, identifier) else { ReusePool.unregistered(elementKind, identifier) }
        return view
    }

    /// Dequeues and configures a cell through a registration (registering its class the first time).
    /// - Parameters:
    ///   - registration: The registration: the cell's class and its handler.
    ///   - indexPath: The item.
    ///   - item: The item's identifier or value, handed to the handler (nil stops the program).
    /// - Returns: The configured cell.
    public func dequeueConfiguredReusableCell<Cell: CollectionViewCell, Item>(using registration: CellRegistration<Cell, Item>, for indexPath: IndexPath, item: Item?) -> Cell {
        registration.configuredCell(in: self, for: indexPath, item: item)
    }

    /// Dequeues and configures a supplementary view through a registration (registering its class the first time).
    /// - Parameters:
    ///   - registration: The registration: the view's class, kind and handler.
    ///   - indexPath: The element's place.
    /// - Returns: The configured view.
    public func dequeueConfiguredReusableSupplementary<Supplementary: CollectionReusableView>(using registration: SupplementaryRegistration<Supplementary>, for indexPath: IndexPath) -> Supplementary {
        registration.configuredView(in: self, for: indexPath)
    }

    // MARK: Layout queries

    /// Prepares the layout and updates the displayed elements if anything changed.
    open func layoutIfNeeded() {
        _ = loadCountsIfNeeded()
        let wasPrepared = !collectionViewLayout.needsPrepare
        collectionViewLayout.prepareIfNeeded()
        if !wasPrepared || needsDisplayUpdate {
            if display.viewless { display.updateShown(self) } else { display.update(self) }
        }
    }

    /// The layout, prepared for the counts (loaded if they were not).
    var preparedLayout: CollectionViewLayout {
        _ = loadCountsIfNeeded()
        collectionViewLayout.prepareIfNeeded()
        return collectionViewLayout
    }

    /// The size of all content.
    public var contentSize: CGSize { preparedLayout.collectionViewContentSize }

    /// Attributes of the item at `indexPath` (during interactive movement, the moving item is under the pointer).
    /// - Parameter indexPath: The item.
    /// - Returns: Its frame and look, or nil when it does not exist.
    public func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        let layout = preparedLayout
        if let movement, movement.current == indexPath {
            return layout.layoutAttributesForInteractivelyMovingItem(at: indexPath, withTargetPosition: movement.position)
        }
        return layout.layoutAttributesForItem(at: indexPath)
    }

    /// Attributes of a supplementary element.
    /// - Parameters:
    ///   - kind: The element's kind.
    ///   - indexPath: Its place.
    /// - Returns: Its attributes, or nil when the layout has no such element.
    public func layoutAttributesForSupplementaryElement(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        preparedLayout.layoutAttributesForSupplementaryView(ofKind: kind, at: indexPath)
    }

    /// The item whose frame contains `point` (cells only, not headers).
    /// - Parameter point: A point in content coordinates.
    /// - Returns: The item there, or nil.
    public func indexPathForItem(at point: CGPoint) -> IndexPath? {
        let probe = CGRect(x: point.x, y: point.y, width: 0.000_01, height: 0.000_01)
        let hits = preparedLayout.layoutAttributesForElements(in: probe) ?? [], mirror = self.mirror
        return hits.last { $0.representedElementCategory == .cell && mirror.shownFrame(of: $0).contains(point) && !$0.isHidden }?.indexPath
    }

    /// Items whose frames intersect the bounds, in index-path order.
    public var indexPathsForVisibleItems: [IndexPath] {
        layoutIfNeeded()
        return (collectionViewLayout.layoutAttributesForElements(in: bounds) ?? [])
            .filter { $0.representedElementCategory == .cell }.map(\.indexPath).sorted()
    }

    /// Displayed cells whose frames intersect the bounds.
    public var visibleCells: [CollectionViewCell] {
        indexPathsForVisibleItems.compactMap { display.table[.cell($0)] as? CollectionViewCell }
    }

    /// The displayed cell for `indexPath`, or nil when it is not displayed.
    /// - Parameter indexPath: The item.
    /// - Returns: Its cell, or nil.
    public func cellForItem(at indexPath: IndexPath) -> CollectionViewCell? {
        layoutIfNeeded()
        return display.table[.cell(indexPath)] as? CollectionViewCell
    }

    /// The index path of a displayed cell.
    /// - Parameter cell: A cell.
    /// - Returns: Its item, or nil when it is not displayed.
    public func indexPath(for cell: CollectionViewCell) -> IndexPath? { display.indexPath(of: cell, as: .cell) }

    /// The index path of a displayed supplementary view.
    /// - Parameter view: A supplementary view.
    /// - Returns: Its place, or nil when it is not displayed.
    public func indexPath(forSupplementaryView view: CollectionReusableView) -> IndexPath? {
        display.indexPath(of: view, as: .supplementaryView)
    }

    /// Index paths of supplementary elements of `kind` intersecting the bounds.
    /// - Parameter kind: The element kind.
    /// - Returns: Their index paths, in order.
    public func indexPathsForVisibleSupplementaryElements(ofKind kind: String) -> [IndexPath] {
        layoutIfNeeded()
        return (collectionViewLayout.layoutAttributesForElements(in: bounds) ?? [])
            .filter { $0.representedElementCategory == .supplementaryView && $0.representedElementKind == kind }.map(\.indexPath).sorted()
    }

    /// Displayed supplementary views of `kind` intersecting the bounds.
    /// - Parameter kind: The element kind.
    /// - Returns: Their views.
    public func visibleSupplementaryViews(ofKind kind: String) -> [CollectionReusableView] {
        indexPathsForVisibleSupplementaryElements(ofKind: kind).compactMap { display.table[.supplementary(kind, $0)] }
    }

    /// The displayed supplementary view of `kind` at `indexPath`.
    /// - Parameters:
    ///   - kind: The element kind.
    ///   - indexPath: Its place.
    /// - Returns: The view, or nil when it is not displayed.
    public func supplementaryView(forElementKind kind: String, at indexPath: IndexPath) -> CollectionReusableView? {
        layoutIfNeeded()
        return display.table[.supplementary(kind, indexPath)]
    }
}

/// How quickly items make room during reordering (UIKit's `ReorderingCadence`).
public enum ReorderingCadence: Sendable {
    /// `immediate` (UIKit's default), `fast` or `slow`: how soon items slide aside.
    case immediate, fast, slow
}

/// Whether self-sizing cells may invalidate their size (UIKit's `SelfSizingInvalidation`).
public enum SelfSizingInvalidation: Sendable {
    /// `disabled`, `enabled` (the default) or `enabledIncludingConstraints`.
    case disabled, enabled, enabledIncludingConstraints
}
