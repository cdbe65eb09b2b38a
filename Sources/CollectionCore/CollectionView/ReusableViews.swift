import Foundation
import Synchronization

/// A view the browser draws from a template, as UIKit's `UICollectionReusableView`:
/// a reuse identifier (which template) and string content fields (what fills it).
/// Subclass it to give the fields names. The collection view makes views with
/// `init(frame:)`, as UIKit does, and sets its frame from the layout's attributes
/// (then calls `layoutSubviews()` when its size changed).
open class CollectionReusableView: View {
    // Stored properties are `@exclusivity(unchecked)` as in CollectionView (see there):
    // read for every element of every viewer's batch, never held across a call out.
    /// Which template draws it.
    @exclusivity(unchecked) public internal(set) var reuseIdentifier: String
    /// Fields for the template.
    @exclusivity(unchecked) public var content: [String: String] = [:] {
        didSet {
            revision &+= 1
            contentRevision &+= 1
        }
    }
    // The properties marked `@exclusivity(unchecked)` are read for every displayed
    // view of every viewer on every batch, and only ever set whole (no `inout`
    // access can overlap another): the run-time exclusivity check on each read cost
    // more than the read.

    /// Grows whenever the content changes (not the attributes).
    @exclusivity(unchecked) package private(set) var contentRevision = 0
    /// The attributes last applied.
    public var layoutAttributes: CollectionViewLayoutAttributes? { hasApplied ? applied : nil }
    // Kept as a value and a flag, not an optional: compared for every displayed view
    // of every viewer on every batch, and an optional of attributes is copied out
    // (and destroyed) through outlined value witnesses to be compared.
    @exclusivity(unchecked) private var applied = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: 0, section: 0))
    @exclusivity(unchecked) private var hasApplied = false

    /// The applied attributes' members a mirror sends, read in place (no copy of the
    /// attributes); nil when none were applied.
    package final var appliedPlacement: AppliedPlacement? {
        hasApplied ? AppliedPlacement(frame: applied.frame, zIndex: applied.zIndex, alpha: applied.alpha, isHidden: applied.isHidden || isHidden,
                                      transform: applied.transform) : nil
    }
    /// Grows whenever the content or the applied attributes change: whoever mirrors
    /// the view elsewhere (the server, for a browser) resends it only when this moved.
    @exclusivity(unchecked) public private(set) var revision = 0

    /// The identifier of what the view shows (an item's, a section's), for whoever
    /// mirrors it elsewhere: set by the data source that configures it.
    @exclusivity(unchecked) package var elementIdentifier: String?

    /// What the data source that configured the view attached for whoever mirrors
    /// it (the hub's: the item's record, whose element needs no lookup by key).
    @exclusivity(unchecked) package var elementSource: AnyObject?

    /// Whatever mirrors the view elsewhere keeps what it last sent for it here
    /// (the hub, for a browser): one slot, for the one mirror of its collection view,
    /// an object and three numbers whose meaning is the mirror's (in line: a record
    /// object of their own was one more cold line read for every displayed view of
    /// every viewer on every batch).
    @exclusivity(unchecked) package var mirror: AnyObject?
    // The number the mirror kept with it, and the view's revisions when it did.
    @exclusivity(unchecked) private var mirrorGeneration = 0
    @exclusivity(unchecked) private var mirrorRevision = 0
    @exclusivity(unchecked) private var mirrorContentRevision = 0

    /// What the mirror keeps here, read in one call (its members read from another
    /// module would each be a call, or pay the run-time exclusivity check): the
    /// object not retained (valid while the view keeps it; a retained read and its
    /// release were two atomic operations, for every displayed view of every viewer
    /// on every batch), and the view's revisions when it was kept.
    package final var mirrorRecord: MirrorRecord? {
        guard let mirror else { return nil }
        return MirrorRecord(object: Unmanaged.passUnretained(mirror), generation: mirrorGeneration, revision: mirrorRevision, contentRevision: mirrorContentRevision)
    }

    /// Keeps `object` as the mirror, with `generation` and the view's revisions now.
    package final func keepMirror(_ object: AnyObject, generation: Int) {
        mirrorGeneration = generation
        mirrorRevision = revision
        mirrorContentRevision = contentRevision
        if mirror !== object { mirror = object }   // the same object, mostly: no retain and release
    }
    /// The collection view's mark while it brings its displayed set up to date.
    @exclusivity(unchecked) final var displayPass = 0

    /// A view at `frame`, as UIKit's `init(frame:)`: the collection view makes
    /// registered classes with it (and sets the reuse identifier).
    public override init(frame: CGRect) {
        reuseIdentifier = ""
        super.init(frame: frame)
    }

    /// Views are not archived on Linux: returns nil (see ``View/init(coder:)``).
    public required init?(coder: NSCoder) {
        return nil
    }

    /// A view for a reuse identifier, made with `init(frame:)` (a subclass's
    /// override of it runs).
    /// - Parameter reuseIdentifier: The identifier it is registered and dequeued under.
    public required convenience init(reuseIdentifier: String) {
        self.init(frame: .zero)
        self.reuseIdentifier = reuseIdentifier
    }

    /// Hidden by the app (as UIKit's `isHidden`): the browser hides it too, whatever
    /// its layout attributes say.
    open override var isHidden: Bool {
        didSet { if isHidden != oldValue { revision &+= 1 } }
    }

    /// The keys of the fields a content configuration wrote last (so that the next
    /// one removes those it does not set).
    private var configurationFieldKeys: Set<String> = []

    /// Writes a content configuration's `fields`, removing the fields the previous
    /// configuration wrote that these lack; fields that did not change are not
    /// written again.
    package final func setContentFields(_ fields: [String: String]) {
        var next = content
        for key in configurationFieldKeys where fields[key] == nil { next[key] = nil }
        for (key, value) in fields where next[key] != value { next[key] = value }
        configurationFieldKeys = Set(fields.keys)
        if next != content { content = next }
    }

    /// Called before a view is handed out again: clears the content.
    open func prepareForReuse() {
        content = [:]
        elementIdentifier = nil
        elementSource = nil
        measuredSize = nil
        configurationFieldKeys = []
    }

    /// Receives the layout's attributes.
    /// - Parameter layoutAttributes: Its frame and look.
    open func apply(_ layoutAttributes: CollectionViewLayoutAttributes) {
        if hasLayoutAttributes(equalTo: layoutAttributes) { return }
        revision &+= 1
        applied = layoutAttributes
        hasApplied = true
        if frame != layoutAttributes.frame {
            frame = layoutAttributes.frame
            layoutIfNeeded()
        }
    }

    /// Whether the attributes last applied equal `attributes` (compared in place).
    package final func hasLayoutAttributes(equalTo attributes: CollectionViewLayoutAttributes) -> Bool {
        // Compared borrowed: `applied == attributes` copied both (and destroyed the
        // copies) for every displayed view of every viewer on every batch; this halved
        // the copies (callgrind), the optimizer keeps some where it inlines the call.
        hasApplied && CollectionViewLayoutAttributes.same(applied, attributes)
    }

    /// The size the view's content needs, as measured where it is drawn (the
    /// browser reports it); nil until measured.
    @exclusivity(unchecked) public var measuredSize: CGSize?

    /// With self-sizing (an `estimatedItemSize`), the collection view asks each cell
    /// for its preferred attributes. The default gives the measured size if any.
    /// - Parameter layoutAttributes: The attributes the layout gave.
    /// - Returns: The attributes the view wants (by default with the size the client measured).
    open func preferredLayoutAttributesFitting(_ layoutAttributes: CollectionViewLayoutAttributes) -> CollectionViewLayoutAttributes {
        guard let measuredSize else { return layoutAttributes }
        var preferred = layoutAttributes
        preferred.size = measuredSize
        return preferred
    }
}

extension CollectionView {
    /// Registers a cell class and a handler that configures it for an item, as
    /// UIKit's `UICollectionView.CellRegistration`.
    public struct CellRegistration<Cell: CollectionViewCell, Item> {
        /// Configures a dequeued cell.
        public typealias Handler = (Cell, IndexPath, Item) -> Void
        let handler: Handler
        let reuseIdentifier: String

        /// Creates a registration.
        /// - Parameter handler: Configures a dequeued cell for its index path and item.
        public init(handler: @escaping Handler) {
            self.handler = handler
            reuseIdentifier = "CellRegistration-\(Cell.self)-\(nextRegistrationNumber())"
        }

        /// ``CollectionView/dequeueConfiguredReusableCell(using:for:item:)``.
        func configuredCell(in collectionView: CollectionView, for indexPath: IndexPath, item: Item?) -> Cell {
            if collectionView.display.reuse.cellClasses[reuseIdentifier] == nil {
                collectionView.register(Cell.self, forCellWithReuseIdentifier: reuseIdentifier)
            }
            guard let cell = collectionView.dequeueReusableCell(withReuseIdentifier: reuseIdentifier, for: indexPath) as? Cell else {
                fatalError("registration \(reuseIdentifier) produced a cell that is not a \(Cell.self)")
            }
            guard let item else { fatalError("dequeueConfiguredReusableCell: item for \(indexPath) is nil") }
            handler(cell, indexPath, item)
            return cell
        }
    }

    /// Registers a supplementary view class and its handler, as UIKit's
    /// `UICollectionView.SupplementaryRegistration`.
    public struct SupplementaryRegistration<Supplementary: CollectionReusableView> {
        /// Configures a dequeued view.
        public typealias Handler = (Supplementary, String, IndexPath) -> Void
        /// The kind of element it makes.
        public let elementKind: String
        let handler: Handler
        let reuseIdentifier: String

        /// Creates a registration for `elementKind`.
        /// - Parameters:
        ///   - elementKind: The kind of element it makes.
        ///   - handler: Configures a dequeued view for its kind and index path.
        public init(elementKind: String, handler: @escaping Handler) {
            self.elementKind = elementKind
            self.handler = handler
            reuseIdentifier = "SupplementaryRegistration-\(Supplementary.self)-\(nextRegistrationNumber())"
        }

        /// ``CollectionView/dequeueConfiguredReusableSupplementary(using:for:)``.
        func configuredView(in collectionView: CollectionView, for indexPath: IndexPath) -> Supplementary {
            if collectionView.display.reuse.supplementaryClasses[ReusePool.supplementaryKey(elementKind, reuseIdentifier)] == nil {
                collectionView.register(Supplementary.self, forSupplementaryViewOfKind: elementKind, withReuseIdentifier: reuseIdentifier)
            }
            guard let view = collectionView.dequeueReusableSupplementaryView(ofKind: elementKind, withReuseIdentifier: reuseIdentifier, for: indexPath) as? Supplementary else {
                fatalError("registration \(reuseIdentifier) produced a view that is not a \(Supplementary.self)")
            }
            handler(view, elementKind, indexPath)
            return view
        }
    }
}

/// Recycled views of one reuse identifier, waiting to be dequeued (a class, so
/// that a collection view can keep the queue it used last at hand).
package final class ReuseQueue {
    @exclusivity(unchecked) package var views: [CollectionReusableView] = []
}

/// What a mirror keeps on a view (``CollectionReusableView/mirrorRecord``).
package struct MirrorRecord {
    /// The mirror's object, not retained.
    package var object: Unmanaged<AnyObject>
    /// The mirror's number kept with it.
    package var generation: Int
    /// The view's ``CollectionReusableView/revision`` when the object was kept.
    package var revision: Int
    /// The view's content revision when the object was kept.
    package var contentRevision: Int
}

/// Where a view is and how it shows: the members of its attributes a mirror sends.
package struct AppliedPlacement {
    package var frame: CGRect
    package var zIndex: Int
    package var alpha: CGFloat
    package var isHidden: Bool
    package var transform: CGAffineTransform
}

/// Numbers the registrations' generated reuse identifiers apart.
private let registrations = Atomic<Int>(0)
private func nextRegistrationNumber() -> Int { registrations.add(1, ordering: .relaxed).newValue }
