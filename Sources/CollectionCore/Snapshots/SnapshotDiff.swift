import Foundation

extension BatchUpdate {
    /// The batch that turns `old` into `new`: deletes, inserts, and the fewest
    /// moves (items in a longest increasing subsequence of their old positions stay
    /// put; only the others move). Sections present in both but reordered are
    /// deleted and inserted. The result passes ``validate(countsBefore:countsAfter:)``.
    /// Inlinable so that it is specialized for the caller's identifier types: generic
    /// code across a module boundary pays for metadata look-ups on every step.
    /// - Parameters:
    ///   - old: The snapshot before.
    ///   - new: The snapshot after.
    @inlinable
    public init<S, I>(from old: NSDiffableDataSourceSnapshot<S, I>, to new: NSDiffableDataSourceSnapshot<S, I>) {
        self = BatchUpdate.difference(oldSections: old.sectionIdentifiers, oldItems: old.items,
                                      newSections: new.sectionIdentifiers, newItems: new.items)
    }

    /// The diff of two lists of sections and their items (identifiers unique).
    /// - Parameters:
    ///   - oldSections: The sections before.
    ///   - oldItems: Each old section's items.
    ///   - newSections: The sections after.
    ///   - newItems: Each new section's items.
    /// - Returns: The batch that turns the old into the new, as UIKit validates it.
    @inlinable
    public static func difference<S: Hashable, I: Hashable>(oldSections: [S], oldItems: [[I]], newSections: [S], newItems: [[I]]) -> BatchUpdate {
        var result = BatchUpdate()
        var deletedItems: [IndexPath] = [], insertedItems: [IndexPath] = [], movedItems: [ItemMove] = []
        var newSectionIndex: [S: Int] = [:]
        for (i, s) in newSections.enumerated() { newSectionIndex[s] = i }

        // Sections kept in place: a longest increasing run of their new positions.
        var commonOld: [Int] = [], commonNew: [Int] = []
        for (o, s) in oldSections.enumerated() {
            if let n = newSectionIndex[s] { commonOld.append(o); commonNew.append(n) }
        }
        let keptPositions = longestIncreasingSubsequence(commonNew)
        var survivingNewForOld = [Int?](repeating: nil, count: oldSections.count)
        var survivingOldForNew = [Int?](repeating: nil, count: newSections.count)
        for k in keptPositions {
            survivingNewForOld[commonOld[k]] = commonNew[k]
            survivingOldForNew[commonNew[k]] = commonOld[k]
        }
        result.deletedSections = oldSections.indices.filter { survivingNewForOld[$0] == nil }
        result.insertedSections = newSections.indices.filter { survivingOldForNew[$0] == nil }

        // Items in the common prefix and suffix of a surviving section stay where they
        // are: they need no hashing, and always belong to a longest increasing run.
        var trim: [(prefix: Int, suffix: Int)] = Array(repeating: (0, 0), count: newSections.count)
        // A section whose middle is the old one turned by one place (one item moved
        // within the section, the commonest edit) needs no hashing either: its one
        // move is known (the item outside the others' run, which for three items or
        // more is the only longest one). By new section.
        var turned = [ItemMove?](repeating: nil, count: newSections.count)
        for (n, section) in newSections.enumerated() {
            guard let o = survivingOldForNew[n], oldSections[o] == section else { continue }
            let a = oldItems[o], b = newItems[n]
            // The same storage (a section the change left alone): equal, nothing compared.
            if a.count == b.count && a.withUnsafeBufferPointer({ $0.baseAddress }) == b.withUnsafeBufferPointer({ $0.baseAddress }) {
                trim[n] = (a.count, 0)
                continue
            }
            var p = 0
            while p < a.count && p < b.count && a[p] == b[p] { p += 1 }
            var q = 0
            while q < a.count - p && q < b.count - p && a[a.count - 1 - q] == b[b.count - 1 - q] { q += 1 }
            trim[n] = (p, q)
            turned[n] = Self.turnedByOne(a, b, from: p, count: a.count - p - q).map { move in
                ItemMove(from: IndexPath(item: move.from, section: o), to: IndexPath(item: move.to, section: n))
            }
        }

        // Where every other item sits in the surviving sections of each side.
        var oldPosition: [I: (section: Int, item: Int)] = [:]
        var newPosition: [I: (section: Int, item: Int)] = [:]
        var middles = 0
        for n in newSections.indices where survivingOldForNew[n] != nil && turned[n] == nil {
            middles += newItems[n].count - trim[n].prefix - trim[n].suffix
        }
        oldPosition.reserveCapacity(middles)
        newPosition.reserveCapacity(middles)
        // (A turned section's items are in it on both sides: no other section's
        // middle holds them, so they are left out of the tables.)
        for o in oldSections.indices {
            guard let n = survivingNewForOld[o], turned[n] == nil else { continue }
            let items = oldItems[o]
            for i in trim[n].prefix..<(items.count - trim[n].suffix) { oldPosition[items[i]] = (o, i) }
        }
        for n in newSections.indices where survivingOldForNew[n] != nil && turned[n] == nil {
            let items = newItems[n]
            for i in trim[n].prefix..<(items.count - trim[n].suffix) { newPosition[items[i]] = (n, i) }
        }

        for o in oldSections.indices {
            guard let n = survivingNewForOld[o], turned[n] == nil else { continue }
            let items = oldItems[o]
            for i in trim[n].prefix..<(items.count - trim[n].suffix) where newPosition[items[i]] == nil {
                deletedItems.append(IndexPath(item: i, section: o))
            }
        }
        for n in newSections.indices {
            guard let o = survivingOldForNew[n] else { continue }
            if let move = turned[n] {
                movedItems.append(move)
                continue
            }
            let items = newItems[n]
            var sameSection: [(old: Int, new: Int)] = []
            for i in trim[n].prefix..<(items.count - trim[n].suffix) {
                guard let from = oldPosition[items[i]] else {
                    insertedItems.append(IndexPath(item: i, section: n))
                    continue
                }
                if from.section == o {
                    sameSection.append((from.item, i))
                } else {
                    movedItems.append(ItemMove(from: IndexPath(item: from.item, section: from.section), to: IndexPath(item: i, section: n)))
                }
            }
            let stays = longestIncreasingSubsequence(sameSection.map { $0.old })
            var k = 0
            for (index, pair) in sameSection.enumerated() {
                if k < stays.count && stays[k] == index { k += 1; continue }
                movedItems.append(ItemMove(from: IndexPath(item: pair.old, section: o), to: IndexPath(item: pair.new, section: n)))
            }
        }
        result.deletedItems = deletedItems
        result.insertedItems = insertedItems
        result.movedItems = movedItems
        return result
    }
}

extension BatchUpdate {
    /// Whether `new`'s `count` items from `start` are `old`'s turned by one place: the
    /// first moved to the end, or the last to the front (three items or more, so
    /// that the move is the only fewest). The move's old and new item indices, or nil.
    @inlinable
    static func turnedByOne<I: Equatable>(_ old: [I], _ new: [I], from start: Int, count: Int) -> (from: Int, to: Int)? {
        guard count >= 3, old.count == new.count, start + count <= old.count else { return nil }
        let last = start + count - 1
        if new[last] == old[start] && (start..<last).allSatisfy({ new[$0] == old[$0 + 1] }) { return (start, last) }
        if new[start] == old[last] && (start..<last).allSatisfy({ new[$0 + 1] == old[$0] }) { return (last, start) }
        return nil
    }
}

/// Positions (into `values`) of one longest strictly increasing subsequence,
/// in increasing order. O(n log n) (patience sorting).
/// - Parameter values: The numbers.
/// - Returns: The positions of a longest strictly increasing run of them (not contiguous).
public func longestIncreasingSubsequence(_ values: [Int]) -> [Int] {
    guard !values.isEmpty else { return [] }
    var tails: [Int] = []           // positions of the smallest tail of each length
    var previous = [Int](repeating: -1, count: values.count)
    for (i, v) in values.enumerated() {
        var low = 0, high = tails.count
        while low < high {
            let mid = (low + high) / 2
            if values[tails[mid]] < v { low = mid + 1 } else { high = mid }
        }
        if low > 0 { previous[i] = tails[low - 1] }
        if low == tails.count { tails.append(i) } else { tails[low] = i }
    }
    var result = [Int](repeating: 0, count: tails.count)
    var k = tails.last!
    for j in stride(from: tails.count - 1, through: 0, by: -1) {
        result[j] = k
        k = previous[k]
    }
    return result
}
