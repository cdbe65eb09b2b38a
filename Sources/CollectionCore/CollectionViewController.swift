import Foundation

/// A controller that owns a collection view and is its data source and delegate,
/// as UIKit's `UICollectionViewController`. Override the data source and delegate
/// methods in a subclass.
open class CollectionViewController: CollectionViewDataSource, CollectionViewDelegate {
    /// The managed collection view.
    public let collectionView: CollectionView
    /// Clear the selection each time the view appears (default true).
    public var clearsSelectionOnViewWillAppear = true
    /// Dragging an item reorders it (default true).
    public var installsStandardGestureForInteractiveMovement = true
    private var hasAppeared = false

    /// Creates a controller whose collection view uses `layout`.
    public init(collectionViewLayout layout: CollectionViewLayout) {
        collectionView = CollectionView(frame: .zero, collectionViewLayout: layout)
        collectionView.dataSource = self
        collectionView.delegate = self
        viewDidLoad()
    }

    /// Called once the collection view exists.
    open func viewDidLoad() {}

    /// The view is about to appear: reloads on the first appearance, and clears the
    /// selection when `clearsSelectionOnViewWillAppear`.
    open func viewWillAppear(_ animated: Bool) {
        if !hasAppeared {
            hasAppeared = true
            collectionView.reloadData()
        } else if clearsSelectionOnViewWillAppear {
            collectionView.selectItem(at: nil, animated: animated, scrollPosition: [])
        }
    }

    // Data source (override these).
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

    // Delegate (override what you need).
    open func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
    open func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath) {}
    open func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt indexPath: IndexPath) {}
}
