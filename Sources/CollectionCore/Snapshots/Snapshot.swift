import Foundation

/// The state of a collection by identifier, as UIKit's `NSDiffableDataSourceSnapshot`:
/// ordered sections, each with ordered items; identifiers unique across the snapshot.
public struct NSDiffableDataSourceSnapshot<SectionIdentifierType: Hashable & Sendable, ItemIdentifierType: Hashable & Sendable>: Equatable, Sendable {
    /// Section identifiers in order.
    public private(set) var sectionIdentifiers: [SectionIdentifierType] = []
    /// Items of each section, in order (storage the inlinable diff reads directly).
    @usableFromInline internal private(set) var items: [[ItemIdentifierType]] = []
    private var sectionIndex: [SectionIdentifierType: Int] = [:]
    @usableFromInline internal private(set) var itemSection: [ItemIdentifierType: SectionIdentifierType] = [:]
    /// Items marked with `reloadItems` since this snapshot was made.
    public internal(set) var reloadedItemIdentifiers: [ItemIdentifierType] = []
    /// Items marked with `reconfigureItems`.
    public internal(set) var reconfiguredItemIdentifiers: [ItemIdentifierType] = []
    /// Sections marked with `reloadSections`.
    public internal(set) var reloadedSectionIdentifiers: [SectionIdentifierType] = []
    /// The snapshot this one was handed out as by a live data source, if it was
    /// (Snapshot+Rebase.swift); not part of its value (`==` ignores it).
    package var basis: SnapshotBasis<SectionIdentifierType, ItemIdentifierType>?

    /// An empty snapshot.
    public init() {}

    /// Number of sections.
    @inlinable
    public var numberOfSections: Int { sectionIdentifiers.count }
    /// Number of items in all sections.
    public var numberOfItems: Int { itemSection.count }
    /// Every item identifier, section by section.
    public var itemIdentifiers: [ItemIdentifierType] { items.flatMap { $0 } }

    /// Items in `section`, in order (empty for an unknown section).
    /// - Parameter section: A section.
    /// - Returns: Its items, in order.
    public func itemIdentifiers(inSection section: SectionIdentifierType) -> [ItemIdentifierType] {
        sectionIndex[section].map { items[$0] } ?? []
    }

    /// Number of items in `section`.
    /// - Parameter section: A section.
    /// - Returns: How many items it holds.
    public func numberOfItems(inSection section: SectionIdentifierType) -> Int {
        sectionIndex[section].map { items[$0].count } ?? 0
    }

    /// The position of `section`, or nil.
    /// - Parameter section: A section.
    /// - Returns: Its index, or nil.
    public func indexOfSection(_ section: SectionIdentifierType) -> Int? { sectionIndex[section] }

    /// The section holding `item`, or nil.
    /// - Parameter item: An item.
    /// - Returns: Its section, or nil.
    public func sectionIdentifier(containingItem item: ItemIdentifierType) -> SectionIdentifierType? { itemSection[item] }

    /// The index of `item` in the snapshot: its position among all items, across
    /// sections, as UIKit's `indexOfItem(_:)` (nil when absent). O(sections + items in its section).
    /// - Parameter item: An item.
    /// - Returns: Its place among ``itemIdentifiers`` (every item, section after section), or nil.
    public func indexOfItem(_ item: ItemIdentifierType) -> Int? {
        guard let section = itemSection[item], let s = sectionIndex[section], let i = items[s].firstIndex(of: item) else { return nil }
        return items[..<s].reduce(i) { $0 + $1.count }
    }

    /// The index of `item` within its section, or nil. O(items in that section).
    func indexInSection(of item: ItemIdentifierType) -> Int? {
        guard let section = itemSection[item], let s = sectionIndex[section] else { return nil }
        return items[s].firstIndex(of: item)
    }

    /// The index path of `item`, or nil.
    /// - Parameter item: An item.
    /// - Returns: Its section and place in it, or nil.
    public func indexPath(for item: ItemIdentifierType) -> IndexPath? {
        guard let section = itemSection[item], let s = sectionIndex[section], let i = items[s].firstIndex(of: item) else { return nil }
        return IndexPath(item: i, section: s)
    }

    /// The item at `indexPath`, or nil when out of range.
    /// - Parameter indexPath: A section and item.
    /// - Returns: The item there, or nil.
    @inlinable @inline(__always)
    public func itemIdentifier(at indexPath: IndexPath) -> ItemIdentifierType? {
        guard indexPath.count == 2, items.indices.contains(indexPath.section),
              items[indexPath.section].indices.contains(indexPath.item) else { return nil }
        return items[indexPath.section][indexPath.item]
    }

    /// The item at `item` in the section at `section`, or nil when out of range.
    /// - Parameters:
    ///   - section: The section's index.
    ///   - item: The item's place in it.
    /// - Returns: The item there, or nil.
    @inlinable @inline(__always)
    public func itemIdentifier(section: Int, item: Int) -> ItemIdentifierType? {
        guard items.indices.contains(section), items[section].indices.contains(item) else { return nil }
        return items[section][item]
    }

    /// Item counts per section, in order.
    @inlinable
    // A closure, not `\.count`: a key path in a generic type is made at run time on
    // every call (its generic arguments looked up by mangled name), 0.8% of a
    // node's time at 50 edits/s for the four reads of an edit.
    public var sectionCounts: [Int] { items.map { $0.count } }

    /// Items in the section at `index` (0 when out of range). O(1).
    /// - Parameter index: The section's index.
    /// - Returns: How many items it holds (0 for no section).
    @inlinable
    public func numberOfItems(inSectionAt index: Int) -> Int {
        items.indices.contains(index) ? items[index].count : 0
    }

    /// True when `item` is in the snapshot.
    /// - Parameter item: An item.
    /// - Returns: Whether the snapshot holds it.
    public func contains(item: ItemIdentifierType) -> Bool { itemSection[item] != nil }

    // MARK: Mutations (a duplicate identifier traps with its name, as UIKit's does)

    /// Appends sections at the end.
    /// - Parameter identifiers: The new sections, in order.
    public mutating func appendSections(_ identifiers: [SectionIdentifierType]) {
        for id in identifiers {
            if !(sectionIndex[id] == nil) { fatalError("Section identifier \(id) is already in the snapshot; identifiers must be unique") }
            sectionIndex[id] = sectionIdentifiers.count
            sectionIdentifiers.append(id)
            items.append([])
        }
    }

    /// Appends items to `section` (the last section when nil).
    /// - Parameters:
    ///   - identifiers: The new items, in order.
    ///   - section: The section (nil: the last one).
    public mutating func appendItems(_ identifiers: [ItemIdentifierType], toSection section: SectionIdentifierType? = nil) {
        guard let target = section ?? sectionIdentifiers.last, let s = sectionIndex[target] else {
            fatalError("appendItems: section \(String(describing: section)) is not in the snapshot")
        }
        for id in identifiers {
            if !(itemSection[id] == nil) { fatalError("Item identifier \(id) is already in the snapshot; identifiers must be unique") }
            itemSection[id] = target
        }
        items[s].append(contentsOf: identifiers)
    }

    /// Inserts items at `index` of `section`.
    /// - Parameters:
    ///   - identifiers: The new items, in order.
    ///   - index: Where the first goes in the section.
    ///   - section: The section.
    public mutating func insertItems(_ identifiers: [ItemIdentifierType], at index: Int, inSection section: SectionIdentifierType) {
        guard let s = sectionIndex[section] else { fatalError("insertItems: section \(section) is not in the snapshot") }
        for id in identifiers {
            if !(itemSection[id] == nil) { fatalError("Item identifier \(id) is already in the snapshot; identifiers must be unique") }
            itemSection[id] = section
        }
        items[s].insert(contentsOf: identifiers, at: index)
    }

    /// Deletes items (unknown identifiers are ignored).
    /// - Parameter identifiers: The items.
    public mutating func deleteItems(_ identifiers: [ItemIdentifierType]) {
        var bySection: [Int: Set<ItemIdentifierType>] = [:]
        for id in identifiers {
            guard let section = itemSection.removeValue(forKey: id), let s = sectionIndex[section] else { continue }
            bySection[s, default: []].insert(id)
        }
        for (s, gone) in bySection { items[s].removeAll { gone.contains($0) } }
    }

    /// Moves an item to `index` of `section` (an index among the section's items
    /// once the item is out of its place). Within one section the index of items by
    /// section stays as it is: a change to it copies it (it is shared with the
    /// snapshot this one was copied from), which costs the whole collection's size.
    package mutating func moveItem(_ identifier: ItemIdentifierType, to index: Int, inSection section: SectionIdentifierType) {
        guard let t = sectionIndex[section] else { fatalError("moveItem: section \(section) is not in the snapshot") }
        let from = takeOut(identifier)
        items[t].insert(identifier, at: index)
        if from != section { itemSection[identifier] = section }
    }

    /// Moves an item just before or after `other` (in `other`'s section).
    mutating func moveItem(_ identifier: ItemIdentifierType, nextTo other: ItemIdentifierType, after: Bool) {
        guard let to = itemSection[other], let t = sectionIndex[to] else { fatalError("moveItem: item \(other) is not in the snapshot") }
        let from = takeOut(identifier)
        guard let j = items[t].firstIndex(of: other) else { fatalError("moveItem: item \(other) is not in the snapshot") }
        items[t].insert(identifier, at: after ? j + 1 : j)
        if from != to { itemSection[identifier] = to }
    }

    /// Takes an item out of its section's items (the index of items by section left
    /// as it is); returns that section.
    private mutating func takeOut(_ identifier: ItemIdentifierType) -> SectionIdentifierType {
        guard let from = itemSection[identifier], let f = sectionIndex[from], let i = items[f].firstIndex(of: identifier) else {
            fatalError("moveItem: item \(identifier) is not in the snapshot")
        }
        items[f].remove(at: i)
        return from
    }

    /// Replaces the items of `section` with the same items in a new order, or new items.
    /// - Parameters:
    ///   - identifiers: The section's items, in order.
    ///   - section: The section.
    public mutating func setItems(_ identifiers: [ItemIdentifierType], inSection section: SectionIdentifierType) {
        guard let s = sectionIndex[section] else { fatalError("setItems: section \(section) is not in the snapshot") }
        // The same items in another order (a shuffle, a sort): the index of items by
        // section stays as it is (a copy of it, shared with the snapshot this one was
        // copied from, would cost the whole collection's size).
        if identifiers.count == items[s].count, identifiers.allSatisfy({ itemSection[$0] == section }), Set(identifiers).count == identifiers.count {
            items[s] = identifiers
            return
        }
        for id in items[s] { itemSection[id] = nil }
        for id in identifiers {
            if !(itemSection[id] == nil) { fatalError("Item identifier \(id) is already in the snapshot; identifiers must be unique") }
            itemSection[id] = section
        }
        items[s] = identifiers
    }

    /// Inserts sections at `index`.
    /// - Parameters:
    ///   - identifiers: The new sections, in order.
    ///   - index: Where the first goes.
    public mutating func insertSections(_ identifiers: [SectionIdentifierType], at index: Int) {
        for id in identifiers {
            if !(sectionIndex[id] == nil) { fatalError("Section identifier \(id) is already in the snapshot; identifiers must be unique") }
        }
        sectionIdentifiers.insert(contentsOf: identifiers, at: index)
        items.insert(contentsOf: identifiers.map { _ in [] }, at: index)
        sectionIndex = Dictionary(uniqueKeysWithValues: sectionIdentifiers.enumerated().map { ($1, $0) })
    }

    /// Deletes sections and their items.
    /// - Parameter identifiers: The sections, with their items.
    public mutating func deleteSections(_ identifiers: [SectionIdentifierType]) {
        let gone = Set(identifiers)
        for (s, id) in sectionIdentifiers.enumerated() where gone.contains(id) {
            for item in items[s] { itemSection[item] = nil }
        }
        let kept = sectionIdentifiers.indices.filter { !gone.contains(sectionIdentifiers[$0]) }
        items = kept.map { items[$0] }
        sectionIdentifiers = kept.map { sectionIdentifiers[$0] }
        sectionIndex = Dictionary(uniqueKeysWithValues: sectionIdentifiers.enumerated().map { ($1, $0) })
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.sectionIdentifiers == b.sectionIdentifiers && a.items == b.items
    }
}

/// Short name used in docs and tests.
public typealias Snapshot<S: Hashable & Sendable, I: Hashable & Sendable> = NSDiffableDataSourceSnapshot<S, I>

/// The short name (the type has UIKit's, `NSDiffableDataSourceSnapshot`: NS types keep their prefix).
public typealias DiffableDataSourceSnapshot<S: Hashable & Sendable, I: Hashable & Sendable> = NSDiffableDataSourceSnapshot<S, I>
