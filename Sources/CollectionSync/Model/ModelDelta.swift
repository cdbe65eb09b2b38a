import CollectionCore
import Foundation

/// How one batch changed a ``CollectionModel``, by identifier, in as little as
/// it takes: what a store keeps to rebuild the model without keeping it whole
/// after every batch. A move in a section of 25,000 items is one removal and one
/// placement, not the section's new order.
///
/// `applied(to:)` of the model before gives the model after (tested, DifferenceKit's
/// way, on random changes).
public struct ModelDelta: Sendable, Codable, Equatable {
    /// The sections' new order, when it changed (new sections start empty).
    public var sections: [String]?
    /// Items taken out of their section: deleted or moved.
    public var removed: [String] = []
    /// Items put in place, inserted or moved: `[section, index, item]` as index
    /// paths after the batch, in ascending order.
    public var placed: [Placement] = []
    /// Content of items that are new or whose content changed.
    public var content: [String: [String: String]] = [:]
    /// Section titles, whole, when they changed.
    public var titles: [String: String]?
    /// Cell template per item: set or changed.
    public var reuseSet: [String: String] = [:]
    /// Cell template per item: removed (back to the default).
    public var reuseRemoved: [String] = []
    /// Items that cannot move, whole, when that changed.
    public var immovable: [String]?
    /// The default cell template, when it changed.
    public var cellTemplate: String?
    /// The default header template, when it changed.
    public var headerTemplate: String?

    /// One item put at an index of a section.
    public struct Placement: Sendable, Codable, Equatable {
        /// The section's identifier.
        public var section: String
        /// The item's index in it, after the batch.
        public var index: Int
        /// The item.
        public var item: String
        /// A placement.
        public init(section: String, index: Int, item: String) {
            self.section = section
            self.index = index
            self.item = item
        }
    }

    /// An empty delta.
    public init() {}

    /// The delta from `before` to `after`, given the batch between them (as
    /// `BatchUpdate(from:to:)` makes it). `changedContent` names the items whose
    /// content may have changed; nil compares every item's.
    public init(from before: CollectionModel, to after: CollectionModel, batch: BatchUpdate, changedContent: [String]? = nil) {
        let old = before.snapshot, new = after.snapshot
        if old.sectionIdentifiers != new.sectionIdentifiers {
            // Sections came, went or moved (rare): every section whose items differ
            // is given whole, which does not depend on how the diff moved sections.
            sections = new.sectionIdentifiers
            for (s, id) in new.sectionIdentifiers.enumerated() {
                let items = new.itemIdentifiers(inSection: id)
                let before = old.indexOfSection(id) != nil ? old.itemIdentifiers(inSection: id) : []
                guard items != before else { continue }
                removed += before
                placed += items.enumerated().map { Placement(section: new.sectionIdentifiers[s], index: $0.offset, item: $0.element) }
            }
        } else {
            removed = batch.deletedItems.compactMap { old.itemIdentifier(at: $0) } + batch.movedItems.compactMap { old.itemIdentifier(at: $0.from) }
            placed = Set(batch.insertedItems + batch.movedItems.map(\.to)).sorted().compactMap { path in
                new.itemIdentifier(at: path).map { Placement(section: new.sectionIdentifiers[path.section], index: path.item, item: $0) }
            }
        }
        if let changedContent {
            for id in Set(changedContent + placed.map(\.item)) {
                if let c = after.itemContent[id], before.itemContent[id] != c { content[id] = c }
            }
        } else {
            for (id, c) in after.itemContent where before.itemContent[id] != c { content[id] = c }
        }
        if before.sectionTitles != after.sectionTitles { titles = after.sectionTitles }
        if before.itemReuseIdentifiers != after.itemReuseIdentifiers {
            for (id, t) in after.itemReuseIdentifiers where before.itemReuseIdentifiers[id] != t { reuseSet[id] = t }
            reuseRemoved = before.itemReuseIdentifiers.keys.filter { after.itemReuseIdentifiers[$0] == nil }.sorted()
        }
        if before.immovableItems != after.immovableItems { immovable = after.immovableItems.sorted() }
        if before.cellReuseIdentifier != after.cellReuseIdentifier { cellTemplate = after.cellReuseIdentifier }
        if before.headerReuseIdentifier != after.headerReuseIdentifier { headerTemplate = after.headerReuseIdentifier }
    }

    /// `model` changed by this delta.
    public func applied(to model: CollectionModel) -> CollectionModel {
        var next = model
        apply(to: &next)
        return next
    }

    /// Changes `next` by this delta, in place (a store replaying its log copies nothing).
    public func apply(to next: inout CollectionModel) {
        if let sections {
            let old = next.snapshot
            var snapshot = Snapshot<String, String>()
            snapshot.appendSections(sections)
            for id in sections where old.indexOfSection(id) != nil {
                snapshot.appendItems(old.itemIdentifiers(inSection: id), toSection: id)
            }
            next.snapshot = snapshot
        }
        // Every removed item out first (an item moving between sections is never in
        // two at once), then the placed ones at their final indexes, ascending.
        next.snapshot.deleteItems(removed)
        for p in placed where next.snapshot.indexOfSection(p.section) != nil {
            next.snapshot.insertItems([p.item], at: min(p.index, next.snapshot.numberOfItems(inSection: p.section)), inSection: p.section)
        }
        // Content: kept for items still there, new for the changed.
        for id in removed where !next.snapshot.contains(item: id) {
            next.itemContent[id] = nil
            next.itemReuseIdentifiers[id] = nil
        }
        if sections != nil {
            for id in next.itemContent.keys where !next.snapshot.contains(item: id) {
                next.itemContent[id] = nil
                next.itemReuseIdentifiers[id] = nil
            }
        }
        for (id, c) in content { next.itemContent[id] = c }
        if let titles { next.sectionTitles = titles }
        for (id, t) in reuseSet { next.itemReuseIdentifiers[id] = t }
        for id in reuseRemoved { next.itemReuseIdentifiers[id] = nil }
        if let immovable { next.immovableItems = Set(immovable) }
        if let cellTemplate { next.cellReuseIdentifier = cellTemplate }
        if let headerTemplate { next.headerReuseIdentifier = headerTemplate }
    }
}
