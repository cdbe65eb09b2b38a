import Foundation

/// Where each index path before a batch ends up after it (UIKit's rules: deletes and
/// moves leave their slots, inserts and move targets take theirs, the rest keep their
/// order). Reloaded items keep their slot. O(log n + changes in the section) a lookup.
public struct IndexPathMapper: Sendable {
    private let oldToNew: [Int?]
    private let removed: [[Int]]            // by old section: sorted old items that leave their slot
    private let targets: [[Int]]            // by new section: sorted new items taken by inserts and moves
    private let moves: [Slot: Slot]
    private let gone: Set<Slot>             // deleted or reloaded (their old element does not survive)

    /// An index path as two numbers: hashed far faster than Foundation's `IndexPath`,
    /// and every displayed element is looked up on every batch.
    private struct Slot: Hashable, Sendable {
        var section: Int
        var item: Int
        init(section: Int, item: Int) {
            self.section = section
            self.item = item
        }
        init(_ p: IndexPath) {
            section = p.count > 0 ? p[0] : 0
            item = p.count > 1 ? p[1] : 0
        }
        // One 64-bit mix, not SipHash (as `ElementKey`).
        func hash(into hasher: inout Hasher) { hasher.combine(section &* 1_000_003 &+ item) }
        func _rawHashValue(seed: Int) -> Int { mixedHash(section &* 1_000_003 &+ item, seed: seed) }
    }

    /// Prepares the mapping of a valid batch.
    /// - Parameters:
    ///   - batch: A batch that ``BatchUpdate/validate(countsBefore:countsAfter:)`` passes.
    ///   - countsBefore: Each section's item count before it.
    ///   - countsAfter: Each section's item count after it.
    public init(_ batch: BatchUpdate, countsBefore: [Int], countsAfter: [Int]) {
        oldToNew = batch.sectionMapping(oldCount: countsBefore.count, newCount: countsAfter.count)
        var removed: [Int: [Int]] = [:], targets: [Int: [Int]] = [:], moves: [Slot: Slot] = [:]
        for p in batch.deletedItems { removed[p.section, default: []].append(p.item) }
        for m in batch.movedItems {
            removed[m.from.section, default: []].append(m.from.item)
            targets[m.to.section, default: []].append(m.to.item)
            moves[Slot(m.from)] = Slot(m.to)
        }
        for p in batch.insertedItems { targets[p.section, default: []].append(p.item) }
        // By index, not by hash: every displayed element is looked up on every batch.
        self.removed = (0..<countsBefore.count).map { (removed[$0] ?? []).sorted() }
        self.targets = (0..<countsAfter.count).map { (targets[$0] ?? []).sorted() }
        self.moves = moves
        gone = Set((batch.deletedItems + batch.reloadedItems).map(Slot.init))
    }

    /// The section's index after the batch, or nil when deleted.
    /// - Parameter old: A section's index before the batch.
    /// - Returns: Its index after, or nil.
    public func section(_ old: Int) -> Int? {
        oldToNew.indices.contains(old) ? oldToNew[old] : nil
    }

    /// The item's index path after the batch, or nil when deleted or reloaded.
    /// - Parameter old: An item's index path before the batch.
    /// - Returns: Its index path after, or nil.
    public func map(_ old: IndexPath) -> IndexPath? {
        map(section: old.section, item: old.item).map { IndexPath(item: $0.item, section: $0.section) }
    }

    /// Where the slot of `old` is after the batch (a reloaded item's new index path).
    /// - Parameter old: An item's index path before the batch.
    /// - Returns: Its slot's index path after, or nil when deleted.
    public func position(_ old: IndexPath) -> IndexPath? {
        position(section: old.section, item: old.item).map { IndexPath(item: $0.item, section: $0.section) }
    }

    /// ``map(_:)`` on the two numbers of an index path (no `IndexPath` made).
    /// - Parameters:
    ///   - section: The item's section before the batch.
    ///   - item: Its index in it.
    /// - Returns: Its section and index after, or nil when deleted or reloaded.
    public func map(section: Int, item: Int) -> (section: Int, item: Int)? {
        if !gone.isEmpty && gone.contains(Slot(section: section, item: item)) { return nil }
        return position(section: section, item: item)
    }

    /// ``position(_:)`` on the two numbers of an index path.
    /// - Parameters:
    ///   - old: The item's section before the batch.
    ///   - item: Its index in it.
    /// - Returns: Its slot's section and index after, or nil when deleted.
    public func position(section old: Int, item: Int) -> (section: Int, item: Int)? {
        if !moves.isEmpty, let to = moves[Slot(section: old, item: item)] { return (to.section, to.item) }
        guard let newSection = section(old) else { return nil }
        let removedHere = removed.indices.contains(old) ? removed[old] : []
        var k = item - (removedHere.isEmpty ? 0 : countBelow(removedHere, item))
        if targets.indices.contains(newSection) {
            for d in targets[newSection] {
                if d <= k { k += 1 } else { break }
            }
        }
        return (newSection, k)
    }

    private func countBelow(_ sorted: [Int], _ value: Int) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
