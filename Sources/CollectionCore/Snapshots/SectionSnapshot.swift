import Foundation

/// The items of one section as an outline (parents, children, expanded or
/// collapsed), as UIKit's `NSDiffableDataSourceSectionSnapshot`. Applied to a
/// section, its visible items become the section's items.
public struct NSDiffableDataSourceSectionSnapshot<ItemIdentifierType: Hashable & Sendable>: Sendable, Equatable {
    private var children: [ItemIdentifierType?: [ItemIdentifierType]] = [:]
    private var parents: [ItemIdentifierType: ItemIdentifierType] = [:]
    private var expanded: Set<ItemIdentifierType> = []

    /// An empty section snapshot.
    public init() {}

    /// Every item, depth first.
    public var items: [ItemIdentifierType] { flatten(under: nil, onlyVisible: false) }
    /// Items not hidden under a collapsed parent, depth first.
    public var visibleItems: [ItemIdentifierType] { flatten(under: nil, onlyVisible: true) }
    /// Top-level items.
    public var rootItems: [ItemIdentifierType] { children[nil] ?? [] }

    private func flatten(under parent: ItemIdentifierType?, onlyVisible: Bool) -> [ItemIdentifierType] {
        var out: [ItemIdentifierType] = []
        func walk(_ parent: ItemIdentifierType?) {
            for item in children[parent] ?? [] {
                out.append(item)
                if !onlyVisible || expanded.contains(item) { walk(item) }
            }
        }
        walk(parent)
        return out
    }

    /// True when the item is in the snapshot.
    /// - Parameter item: An item.
    /// - Returns: Whether it is in the tree (shown or under a collapsed parent).
    public func contains(_ item: ItemIdentifierType) -> Bool { parents[item] != nil || rootItems.contains(item) }

    /// Appends items under `parent` (at the top level when nil).
    /// - Parameters:
    ///   - items: The items, in order.
    ///   - parent: The item they go under (nil: the top level).
    public mutating func append(_ items: [ItemIdentifierType], to parent: ItemIdentifierType? = nil) {
        if let parent, !contains(parent) { fatalError("append(_:to:): parent \(parent) is not in the section snapshot") }
        for item in items {
            if !(!contains(item)) { fatalError("Item identifier \(item) is already in the section snapshot; identifiers must be unique") }
            children[parent, default: []].append(item)
            if let parent { parents[item] = parent }
        }
    }

    /// Inserts items just before `item`, at its level.
    /// - Parameters:
    ///   - items: The items, in order.
    ///   - item: The item they go before, under its parent.
    public mutating func insert(_ items: [ItemIdentifierType], before item: ItemIdentifierType) {
        insert(items, next: item, offset: 0)
    }

    /// Inserts items just after `item`, at its level.
    /// - Parameters:
    ///   - items: The items, in order.
    ///   - item: The item they go after, under its parent.
    public mutating func insert(_ items: [ItemIdentifierType], after item: ItemIdentifierType) {
        insert(items, next: item, offset: 1)
    }

    private mutating func insert(_ items: [ItemIdentifierType], next item: ItemIdentifierType, offset: Int) {
        let parent = parents[item]
        guard let index = children[parent]?.firstIndex(of: item) else { fatalError("insert: item \(item) is not in the section snapshot") }
        for new in items where contains(new) { fatalError("Item identifier \(new) is already in the section snapshot") }
        children[parent]!.insert(contentsOf: items, at: index + offset)
        if let parent { for new in items { parents[new] = parent } }
    }

    /// Deletes items and everything under them.
    /// - Parameter items: The items (their children go with them).
    public mutating func delete(_ items: [ItemIdentifierType]) {
        for item in items where contains(item) {
            for child in flatten(under: item, onlyVisible: false) {
                parents[child] = nil
                expanded.remove(child)
            }
            children[item] = nil
            let parent = parents[item]
            children[parent]?.removeAll { $0 == item }
            parents[item] = nil
            expanded.remove(item)
        }
    }

    /// Deletes everything.
    public mutating func deleteAll() { self = Self() }

    /// Shows the children of these items.
    /// - Parameter items: Parents whose children are to be shown.
    public mutating func expand(_ items: [ItemIdentifierType]) { expanded.formUnion(items.filter(contains)) }
    /// Hides the children of these items.
    /// - Parameter items: Parents whose children are to be hidden.
    public mutating func collapse(_ items: [ItemIdentifierType]) { expanded.subtract(items) }
    /// True when the item's children are shown.
    /// - Parameter item: A parent.
    /// - Returns: Whether its children are shown (when it is).
    public func isExpanded(_ item: ItemIdentifierType) -> Bool { expanded.contains(item) }

    /// True when no ancestor of the item is collapsed.
    /// - Parameter item: An item.
    /// - Returns: Whether every parent above it is expanded.
    public func isVisible(_ item: ItemIdentifierType) -> Bool {
        guard contains(item) else { return false }
        var current = parents[item]
        while let p = current {
            if !expanded.contains(p) { return false }
            current = parents[p]
        }
        return true
    }

    /// The item's parent, or nil at the top level.
    /// - Parameter item: An item.
    /// - Returns: Its parent (nil: a top-level item).
    public func parent(of item: ItemIdentifierType) -> ItemIdentifierType? { parents[item] }

    /// Depth: 0 at the top level.
    /// - Parameter item: An item.
    /// - Returns: Its depth (0: the top level).
    public func level(of item: ItemIdentifierType) -> Int {
        var level = 0
        var current = parents[item]
        while let p = current { level += 1; current = parents[p] }
        return level
    }

    /// Position in `items`, or nil.
    /// - Parameter item: An item.
    /// - Returns: Its place among ``items`` (every item, depth first), or nil.
    public func index(of item: ItemIdentifierType) -> Int? { items.firstIndex(of: item) }

    /// The subtree under `item` as its own section snapshot.
    /// - Parameters:
    ///   - item: A parent.
    ///   - includingParent: Whether the parent itself is the new snapshot's root.
    /// - Returns: Its subtree.
    public func snapshot(of item: ItemIdentifierType, includingParent: Bool = false) -> Self {
        var result = Self()
        func copy(_ parent: ItemIdentifierType, into newParent: ItemIdentifierType?) {
            for child in children[parent] ?? [] {
                result.append([child], to: newParent)
                if expanded.contains(child) { result.expanded.insert(child) }
                copy(child, into: child)
            }
        }
        if includingParent {
            result.append([item])
            if expanded.contains(item) { result.expanded.insert(item) }
            copy(item, into: item)
        } else {
            copy(item, into: nil)
        }
        return result
    }
}

/// The short name (the type has UIKit's, `NSDiffableDataSourceSectionSnapshot`: NS types keep their prefix).
public typealias DiffableDataSourceSectionSnapshot<I: Hashable & Sendable> = NSDiffableDataSourceSectionSnapshot<I>
