import CollectionCore
import CollectionProtocol
import Foundation

/// The shared model, by reference, so that every viewer's data source reads the same,
/// current state (what keeps collections is a ``CollectionStore``).
package final class SharedModel {
    // Unchecked: the store is used from the one thread that serves its collection,
    // and every cell a batch configures reads the model.
    @exclusivity(unchecked) package var model: CollectionModel { didSet { modelVersion &+= 1 } }
    /// Counts the model's changes (each in-place change too).
    @exclusivity(unchecked) private(set) var modelVersion = 0
    /// Each section's header fields, kept while its identifier, title and count stay:
    /// every viewer's header element then holds the same dictionary, and a batch
    /// compares it by identity instead of looking its fields up.
    @exclusivity(unchecked) private var headers: [HeaderFields] = []
    private struct HeaderFields {
        var id = "", title = "", count = -1, version = -1
        var content: [String: String] = [:]
        /// The header element's identity for these fields (made when a window without
        /// views first shows the header).
        var identity: Element.Identity?
    }
    /// Elements' JSON, shared by every viewer's view state.
    let encodingCache = ElementEncodingCache()
    /// Each item's record, made when a viewer's cell first shows it.
    @exclusivity(unchecked) private var records: [String: ItemRecord] = [:]
    /// The model's item contents the records were made from, and its version then.
    /// Held, so that a change of the model's makes storage of its own: the same
    /// storage is found equal at once.
    @exclusivity(unchecked) private var recordsBasis: [String: [String: String]] = [:]
    @exclusivity(unchecked) private var recordsVersion = -1
    /// Records kept at most (then made again as cells show them), as the encoding cache.
    static let recordCapacity = 20_000
    /// The drop delegate every view state's collection view uses (held here: the
    /// collection views' own reference is weak, as UIKit's).
    var dropDelegate: (any CollectionViewDropDelegate)?
    /// The background view every viewer is shown (``CollectionHub/setBackgroundView(_:)``).
    var background: BackgroundContent?
    /// The drag delegate every view state's collection view uses (held here, as the drop delegate).
    var dragDelegate: (any CollectionViewDragDelegate)?
    /// The app's delegate, installed on every view state's collection view (held
    /// here for the same reason).
    var delegate: (any CollectionViewDelegate)?
    /// The hub of this model, whose delegate has the app's `canMoveItemAt` rules.
    weak var owner: CollectionHub?

    /// UIKit's `canMoveItemAt`: the model's immovable items never move, and the
    /// app's rules (its data source's and delegate's) must agree (asked with the
    /// acting viewer set).
    func canMoveItem(at indexPath: IndexPath) -> Bool {
        guard let id = model.snapshot.itemIdentifier(at: indexPath), !model.immovableItems.contains(id) else { return false }
        guard let hub = owner, let delegate = hub.hubDelegate else { return true }
        return delegate.hub(hub, canMoveItemAt: indexPath)
    }
    /// Whether every viewer's collection view keeps views (``CollectionHub/keepsViewsForEveryViewer``).
    var keepsViews = false
    package init(_ model: CollectionModel) { self.model = model }

    /// The record of item `id`, its content the model's now.
    func record(for id: String) -> ItemRecord {
        if recordsVersion != modelVersion {
            // The model changed: the records hold while its item contents are the same
            // (whenever they are the very storage, at once).
            if recordsBasis != model.itemContent { records.removeAll(keepingCapacity: true) }
            recordsBasis = model.itemContent
            recordsVersion = modelVersion
        }
        if let record = records[id] { return record }
        if records.count >= Self.recordCapacity { records.removeAll(keepingCapacity: true) }
        let record = ItemRecord(id: id, content: model.itemContent[id] ?? [:])
        records[id] = record
        return record
    }

    /// The record of the item at `section`, `item` (nil: no such item): found by its
    /// place while the model stays (every viewer of a batch asks for the same items:
    /// one lookup by identifier for them all, and no identifier read for the others).
    func record(section: Int, item: Int) -> ItemRecord? {
        if byPositionVersion != modelVersion {
            byPosition.removeAll(keepingCapacity: true)
            byPositionVersion = modelVersion
        }
        if section >= 0, section < byPosition.count, item >= 0, item < byPosition[section].count, let placed = byPosition[section][item] { return placed }
        guard let id = model.snapshot.itemIdentifier(section: section, item: item) else { return nil }
        guard section < Self.positionedSections else { return record(for: id) }
        while byPosition.count <= section { byPosition.append([]) }
        if byPosition[section].isEmpty {
            // A section's slots are made when a window first shows it in this version of the model.
            byPosition[section] = [ItemRecord?](repeating: nil, count: model.snapshot.numberOfItems(inSectionAt: section))
        }
        let found = record(for: id)
        if item < byPosition[section].count { byPosition[section][item] = found }
        return found
    }
    /// The identity of the header element of the section at `section` (its key, the
    /// model's header reuse identifier, its title and count, their JSON made): one
    /// object while they stay, so that a window without views knows the header it holds
    /// by identity, with no field compared. Nil: no such section.
    func headerIdentity(forSectionAt section: Int) -> Element.Identity? {
        if section >= 0, section < headers.count, headers[section].version == modelVersion, let identity = headers[section].identity { return identity }
        let content = headerContent(forSectionAt: section)
        guard section >= 0 && section < model.snapshot.numberOfSections else { return nil }
        // The reuse identifier changes only with the model: checked once a version.
        let reuse = model.headerReuseIdentifier
        if let identity = headers[section].identity, identity.reuse == reuse { return identity }
        let made = Element(key: "h:" + headers[section].id, kind: "header", reuse: reuse, section: section, item: nil, x: 0, y: 0, width: 0, height: 0,
                           zIndex: 0, alpha: 1, hidden: false, transform: nil, content: content, cache: encodingCache).identity
        headers[section].identity = made
        return made
    }

    /// Records by section and item, for the model's version `byPositionVersion`.
    @exclusivity(unchecked) private var byPosition: [[ItemRecord?]] = []
    @exclusivity(unchecked) private var byPositionVersion = -1
    /// Sections past this many are looked up by identifier only.
    static let positionedSections = 1_024

    /// A header's fields (title and count), from the model as it is now.
    func headerContent(forSectionAt section: Int) -> [String: String] {
        guard section >= 0 && section < model.snapshot.numberOfSections else { return [:] }
        if section < headers.count && headers[section].version == modelVersion { return headers[section].content }
        let id = model.snapshot.sectionIdentifiers[section]
        let title = model.sectionTitles[id] ?? id
        let count = model.snapshot.numberOfItems(inSectionAt: section)
        while headers.count <= section { headers.append(HeaderFields()) }
        if headers[section].id != id || headers[section].title != title || headers[section].count != count {
            headers[section] = HeaderFields(id: id, title: title, count: count, version: modelVersion, content: ["title": title, "count": String(count)])
        } else {
            headers[section].version = modelVersion
        }
        return headers[section].content
    }
}

/// One item's content as the model has it, and the identity of its element once a
/// viewer's window made one: every viewer's cell of the item carries the record
/// (`elementSource`), so that its element is made without building its key, hashing
/// it and looking it up in the encoding cache.
final class ItemRecord {
    let id: String
    let content: [String: String]
    /// The identity of the item's cell element, made from `content` (never another
    /// content: the window without views uses it after checking the reuse identifier alone).
    @exclusivity(unchecked) var identity: Element.Identity?

    init(id: String, content: [String: String]) {
        self.id = id
        self.content = content
    }
}

/// One viewer's data source over the shared model: cells carry the item's content
/// fields (and its identifier), headers the section's title and count.
final class ModelDataSource: CollectionViewDataSource {
    let store: SharedModel
    /// Cell reuse identifiers registered with the collection view, and the last used.
    @exclusivity(unchecked) private var registered: Set<String> = []
    @exclusivity(unchecked) private var lastReuse = ""

    init(store: SharedModel) { self.store = store }

    /// Registers the model's reuse identifiers with `collectionView`.
    func register(in collectionView: CollectionView) {
        registered.insert(store.model.cellReuseIdentifier)
        collectionView.register(CollectionViewCell.self, forCellWithReuseIdentifier: store.model.cellReuseIdentifier)
        collectionView.register(CollectionReusableView.self, forSupplementaryViewOfKind: CollectionView.elementKindSectionHeader,
                                withReuseIdentifier: store.model.headerReuseIdentifier)
    }

    func numberOfSections(in collectionView: CollectionView) -> Int { store.model.snapshot.numberOfSections }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        store.model.snapshot.numberOfItems(inSectionAt: section)
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        // The store's model read in place (a copy of the whole model cost more than the rest).
        let store = store
        let id = store.model.snapshot.itemIdentifier(at: indexPath)
        let reuse = store.model.itemReuseIdentifiers.isEmpty ? store.model.cellReuseIdentifier
            : id.map { store.model.reuseIdentifier(forItem: $0) } ?? store.model.cellReuseIdentifier
        // Templates of the app's own are registered as they first appear (the
        // common case, the same template as the last cell, costs one comparison).
        if reuse != lastReuse {
            if registered.insert(reuse).inserted { collectionView.register(CollectionViewCell.self, forCellWithReuseIdentifier: reuse) }
            lastReuse = reuse
        }
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: reuse, for: indexPath)
        if let id {
            let record = store.record(for: id)
            cell.content = record.content   // the model's own fields, shared
            cell.elementIdentifier = id
            cell.elementSource = record
        }
        return cell
    }

    /// A header (the model's header template, the section's title and count); a
    /// footer (template `tpl-<kind>`, the same fields); any other kind, a badge (the
    /// template named after the kind, the fields of the item at its index path).
    func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView {
        let model = store.model
        let reuse = kind == CollectionView.elementKindSectionHeader ? model.headerReuseIdentifier : kind
        if registered.insert(kind + "\u{1F}" + reuse).inserted {
            collectionView.register(CollectionReusableView.self, forSupplementaryViewOfKind: kind, withReuseIdentifier: reuse)
        }
        let view = collectionView.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: reuse, for: indexPath)
        if kind != CollectionView.elementKindSectionHeader && kind != CollectionView.elementKindSectionFooter,
           let id = model.snapshot.itemIdentifier(at: indexPath) {
            view.content = model.itemContent[id] ?? [:]
            view.elementIdentifier = id
        } else {
            view.content = headerContent(forSectionAt: indexPath.section)
            view.elementIdentifier = sectionIdentifier(at: indexPath.section)
        }
        return view
    }

    /// A header's fields, from the model as it is now (its count changes with every
    /// insert and delete, while the header view itself stays displayed).
    func headerContent(forSectionAt section: Int) -> [String: String] { store.headerContent(forSectionAt: section) }

    /// The identifier of the section at `section` (nil: none there).
    func sectionIdentifier(at section: Int) -> String? {
        let snapshot = store.model.snapshot
        return section >= 0 && section < snapshot.numberOfSections ? snapshot.sectionIdentifiers[section] : nil
    }

    func collectionView(_ collectionView: CollectionView, canMoveItemAt indexPath: IndexPath) -> Bool {
        store.canMoveItem(at: indexPath)
    }

}
