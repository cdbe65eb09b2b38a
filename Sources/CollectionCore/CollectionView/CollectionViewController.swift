import Foundation

/// A controller that owns a collection view and is its data source and delegate,
/// as UIKit's `UICollectionViewController`. Override the data source and delegate
/// methods in a subclass (`override func …`): every one is declared here, so an
/// override is called. A subclass that also conforms to
/// ``CollectionViewDelegateFlowLayout`` gives the flow layout its sizes, as in UIKit.
///
/// The view loads lazily, as in UIKit: configure the controller after `init`; the
/// collection view is made, and ``viewDidLoad()`` called, on the first access of
/// ``view`` or ``collectionView`` (or ``loadViewIfNeeded()``).
open class CollectionViewController: CollectionViewDataSource, CollectionViewDelegate {
    private var loadedView: CollectionView?
    private let initialLayout: CollectionViewLayout
    /// Clear the selection each time the view appears (default true).
    public var clearsSelectionOnViewWillAppear = true
    /// Dragging an item reorders it (default true).
    public var installsStandardGestureForInteractiveMovement = true
    private var hasAppeared = false

    /// Creates a controller whose collection view will use `layout`.
    /// - Parameter layout: The layout of the collection view the controller makes.
    public init(collectionViewLayout layout: CollectionViewLayout) {
        initialLayout = layout
    }

    /// The managed collection view (loaded on first access). Setting it makes the
    /// controller its data source and delegate when it has none.
    public var collectionView: CollectionView! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set {
            loadedView = newValue
            if newValue?.dataSource == nil { newValue?.dataSource = self }
            if newValue?.delegate == nil { newValue?.delegate = self }
        }
    }

    /// The controller's view: its collection view (loaded on first access).
    public var view: CollectionView! { collectionView }

    /// The layout the collection view uses.
    public var collectionViewLayout: CollectionViewLayout { loadedView?.collectionViewLayout ?? initialLayout }

    /// Whether the view has been loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Loads the view (``loadView()``, then ``viewDidLoad()``) unless it is loaded.
    public func loadViewIfNeeded() {
        guard loadedView == nil else { return }
        loadView()
        if loadedView == nil { collectionView = CollectionView(frame: .zero, collectionViewLayout: initialLayout) }
        viewDidLoad()
    }

    /// Makes the collection view, with this controller as its data source and
    /// delegate. Override to make your own (set ``collectionView``).
    open func loadView() {
        collectionView = CollectionView(frame: .zero, collectionViewLayout: initialLayout)
    }

    /// Called once, after the view is loaded.
    open func viewDidLoad() {}

    /// The view is about to appear: reloads on the first appearance, and clears the
    /// selection when `clearsSelectionOnViewWillAppear`.
    /// - Parameter animated: Whether the appearance is animated (and so the selection's clearing).
    open func viewWillAppear(_ animated: Bool) {
        if !hasAppeared {
            hasAppeared = true
            collectionView.reloadData()
        } else if clearsSelectionOnViewWillAppear {
            collectionView.selectItem(at: nil, animated: animated, scrollPosition: [])
        }
    }

    // MARK: Data source (override these)

    open func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
    open func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 0 }
    open func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        fatalError("\(type(of: self)) must override collectionView(_:cellForItemAt:)")
    }
    open func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView {
        CollectionReusableView(reuseIdentifier: "")
    }
    open func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool { false }
    open func collectionView(_ collectionView: CollectionView, moveItemAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {}

    // MARK: Delegate (override what you need)

    open func collectionView(_ collectionView: CollectionView, shouldHighlightItemAt indexPath: IndexPath) -> Bool { true }
    open func collectionView(_ collectionView: CollectionView, didHighlightItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, didUnhighlightItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
    open func collectionView(_ collectionView: CollectionView, shouldDeselectItemAt indexPath: IndexPath) -> Bool { true }
    open func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, willDisplaySupplementaryView view: CollectionReusableView, forElementKind elementKind: String, at indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, didEndDisplayingSupplementaryView view: CollectionReusableView, forElementOfKind elementKind: String, at indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, canFocusItemAt indexPath: IndexPath) -> Bool { true }
    open func collectionView(_ collectionView: CollectionView, didUpdateFocusIn context: CollectionViewFocusUpdateContext, with coordinator: FocusAnimationCoordinator) {}
    /// By default the older ``collectionView(_:targetIndexPathForMoveFromItemAt:toProposedIndexPath:)`` decides.
    open func collectionView(_ collectionView: CollectionView, targetIndexPathForMoveOfItemFromOriginalIndexPath originalIndexPath: IndexPath, atCurrentIndexPath currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath) -> IndexPath {
        self.collectionView(collectionView, targetIndexPathForMoveFromItemAt: currentIndexPath, toProposedIndexPath: proposedIndexPath)
    }
    open func collectionView(_ collectionView: CollectionView, targetIndexPathForMoveFromItemAt currentIndexPath: IndexPath, toProposedIndexPath proposedIndexPath: IndexPath) -> IndexPath {
        proposedIndexPath
    }
}
