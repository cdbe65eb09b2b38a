import CollectionCore
import Foundation
import Testing

/// Every diff is applied back to the old snapshot and must give the new one
/// (DifferenceKit's habit), pass UIKit's validation, and move as little as possible.
@Suite struct SnapshotDiffTests {
    typealias Snap = Snapshot<Int, Int>

    func snapshot(_ sections: [(Int, [Int])]) -> Snap {
        var s = Snap()
        for (id, items) in sections {
            s.appendSections([id])
            s.appendItems(items, toSection: id)
        }
        return s
    }

    /// Applies `batch` to `old` and returns the item lists per section.
    func apply(_ batch: BatchUpdate, _ old: Snap, _ new: Snap) -> [[Int]] {
        let sections = old.sectionIdentifiers.map { old.itemIdentifiers(inSection: $0) }
        return batch.applied(
            to: sections, countsAfter: new.sectionCounts,
            insertedItem: { new.itemIdentifier(at: $0)! },
            insertedSection: { new.itemIdentifiers(inSection: new.sectionIdentifiers[$0]) })
    }

    /// The fewest moves possible: for items kept in the same section, all but a
    /// longest increasing run (by an O(n²) reference); every item changing section.
    func minimumMoves(_ old: Snap, _ new: Snap, _ batch: BatchUpdate) -> Int {
        var total = 0
        let deletedSections = Set(batch.deletedSections.map { old.sectionIdentifiers[$0] })
        let insertedSections = Set(batch.insertedSections.map { new.sectionIdentifiers[$0] })
        for section in new.sectionIdentifiers where !insertedSections.contains(section) {
            var oldIndexes: [Int] = []
            for item in new.itemIdentifiers(inSection: section) {
                guard let from = old.sectionIdentifier(containingItem: item), !deletedSections.contains(from) else { continue }
                if from == section { oldIndexes.append(old.indexPath(for: item)!.item) } else { total += 1 }
            }
            var best = [Int](repeating: 1, count: oldIndexes.count)
            for i in oldIndexes.indices {
                for j in 0..<i where oldIndexes[j] < oldIndexes[i] { best[i] = max(best[i], best[j] + 1) }
            }
            total += oldIndexes.count - (best.max() ?? 0)
        }
        return total
    }

    func check(_ old: Snap, _ new: Snap, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let batch = BatchUpdate(from: old, to: new)
        try batch.validate(countsBefore: old.sectionCounts, countsAfter: new.sectionCounts)
        let result = apply(batch, old, new)
        let expected = new.sectionIdentifiers.map { new.itemIdentifiers(inSection: $0) }
        #expect(result == expected, sourceLocation: sourceLocation)
        #expect(batch.movedItems.count == minimumMoves(old, new, batch), sourceLocation: sourceLocation)
    }

    @Test func noChangeIsEmpty() {
        let s = snapshot([(0, [1, 2, 3]), (1, [4, 5])])
        #expect(BatchUpdate(from: s, to: s).isEmpty)
    }

    @Test func oneItemMovedToTheEndIsOneMove() throws {
        let old = snapshot([(0, [1, 2, 3, 4, 5])])
        let new = snapshot([(0, [2, 3, 4, 5, 1])])
        let batch = BatchUpdate(from: old, to: new)
        #expect(batch.movedItems == [ItemMove(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 4, section: 0))])
        #expect(batch.insertedItems.isEmpty && batch.deletedItems.isEmpty)
        try check(old, new)
    }

    /// One item moved within a long section (the middle turned by one place, either
    /// way): one move, found without hashing the section, while other sections
    /// change around it.
    @Test func oneItemMovedWithinALongSectionIsOneMove() throws {
        let items = Array(0..<400)
        for (from, to) in [(3, 390), (390, 3), (0, 399), (399, 0), (200, 202), (202, 200)] {
            var moved = items
            moved.insert(moved.remove(at: from), at: to)
            let old = snapshot([(0, [-1, -2, -3]), (1, items), (2, [-4])])
            let new = snapshot([(0, [-2, -4]), (1, moved), (2, [-1, -3, -5])])
            let batch = BatchUpdate(from: old, to: new)
            #expect(batch.movedItems.filter { $0.from.section == 1 } == [ItemMove(from: IndexPath(item: from, section: 1), to: IndexPath(item: to, section: 1))])
            try check(old, new)
        }
    }

    /// Middles that are not one turn (two items swapped, a turn by two places, two
    /// neighbours swapped) take the general way, and still move as little as possible.
    @Test func almostTurnedMiddlesTakeTheGeneralWay() throws {
        let items = Array(0..<12)
        for new in [[0, 9, 2, 3, 4, 5, 6, 7, 8, 1, 10, 11], [0, 3, 4, 5, 6, 7, 8, 9, 10, 1, 2, 11], [0, 2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11],
                    [0, 4, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11]] {
            try check(snapshot([(0, items)]), snapshot([(0, new)]))
        }
    }

    @Test func deletesInsertsAndCrossSectionMoves() throws {
        let old = snapshot([(0, [1, 2, 3]), (1, [4, 5, 6])])
        let new = snapshot([(0, [1, 5, 3, 7]), (1, [4, 2])])
        let batch = BatchUpdate(from: old, to: new)
        #expect(batch.deletedItems == [IndexPath(item: 2, section: 1)])
        #expect(batch.insertedItems == [IndexPath(item: 3, section: 0)])
        #expect(Set(batch.movedItems) == [ItemMove(from: IndexPath(item: 1, section: 1), to: IndexPath(item: 1, section: 0)),
                                           ItemMove(from: IndexPath(item: 1, section: 0), to: IndexPath(item: 1, section: 1))])
        try check(old, new)
    }

    @Test func sectionInsertAndDelete() throws {
        let old = snapshot([(0, [1, 2]), (1, [3]), (2, [4, 5])])
        let new = snapshot([(0, [1, 2]), (3, [9, 3]), (2, [5, 4])])
        let batch = BatchUpdate(from: old, to: new)
        #expect(batch.deletedSections == [1])
        #expect(batch.insertedSections == [1])
        try check(old, new)
    }

    @Test func longestIncreasingSubsequenceMatchesReference() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let values = (0..<Int.random(in: 0...40, using: &rng)).map { _ in Int.random(in: 0...30, using: &rng) }
            let positions = longestIncreasingSubsequence(values)
            for (a, b) in zip(positions, positions.dropFirst()) {
                #expect(a < b && values[a] < values[b])
            }
            var best = [Int](repeating: 1, count: values.count)
            for i in values.indices { for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) } }
            #expect(positions.count == (best.max() ?? 0))
        }
    }

    /// Seeded random pairs: inserts, deletes, moves within and across sections,
    /// section inserts and deletes: 100,000 seeded pairs.
    @Test func randomPairsApplyBackToTarget() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<100_000 {
            var nextItem = 0
            var old = Snap()
            let sectionCount = Int.random(in: 0...4, using: &rng)
            for s in 0..<sectionCount {
                old.appendSections([s])
                let n = Int.random(in: 0...12, using: &rng)
                old.appendItems((0..<n).map { _ in nextItem += 1; return nextItem }, toSection: s)
            }
            var new = old
            for _ in 0..<Int.random(in: 0...8, using: &rng) {
                let all = new.itemIdentifiers
                switch Int.random(in: 0...5, using: &rng) {
                case 0 where !all.isEmpty:
                    new.deleteItems([all.randomElement(using: &rng)!])
                case 1 where new.numberOfSections > 0:
                    let section = new.sectionIdentifiers.randomElement(using: &rng)!
                    nextItem += 1
                    new.insertItems([nextItem], at: Int.random(in: 0...new.numberOfItems(inSection: section), using: &rng), inSection: section)
                case 2 where !all.isEmpty && new.numberOfSections > 0:
                    let item = all.randomElement(using: &rng)!
                    new.deleteItems([item])
                    let section = new.sectionIdentifiers.randomElement(using: &rng)!
                    new.insertItems([item], at: Int.random(in: 0...new.numberOfItems(inSection: section), using: &rng), inSection: section)
                case 3 where new.numberOfSections > 0:
                    new.deleteSections([new.sectionIdentifiers.randomElement(using: &rng)!])
                case 4:
                    let id = 100 + Int.random(in: 0...1000, using: &rng)
                    if new.indexOfSection(id) == nil { new.appendSections([id]) }
                case 5 where new.numberOfSections > 0:
                    let section = new.sectionIdentifiers.randomElement(using: &rng)!
                    new.setItems(new.itemIdentifiers(inSection: section).shuffled(using: &rng), inSection: section)
                default:
                    break
                }
            }
            try check(old, new)
        }
    }

    @Test func validationNamesSectionAndCounts() {
        var batch = BatchUpdate()
        batch.insertedItems = [IndexPath(item: 0, section: 1)]
        #expect(throws: InvalidBatchUpdate(
            "Invalid update: invalid number of items in section 1. The number of items contained in an existing section after the update (5) must be equal to the number of items contained in that section before the update (3), plus or minus the number of items inserted or deleted from that section (1 inserted, 0 deleted) and plus or minus the number of items moved into or out of that section (0 moved in, 0 moved out).")) {
            try batch.validate(countsBefore: [2, 3], countsAfter: [2, 5])
        }
    }

    @Test func validationRefusesOutOfRangeAndConflicts() {
        var outOfRange = BatchUpdate()
        outOfRange.deletedItems = [IndexPath(item: 3, section: 0)]
        #expect(throws: InvalidBatchUpdate.self) { try outOfRange.validate(countsBefore: [3], countsAfter: [2]) }

        var deleteAndMove = BatchUpdate()
        deleteAndMove.deletedItems = [IndexPath(item: 0, section: 0)]
        deleteAndMove.movedItems = [ItemMove(from: IndexPath(item: 0, section: 0), to: IndexPath(item: 1, section: 0))]
        #expect(throws: InvalidBatchUpdate.self) { try deleteAndMove.validate(countsBefore: [3], countsAfter: [2]) }

        var sections = BatchUpdate()
        sections.insertedSections = [0]
        #expect(throws: InvalidBatchUpdate(
            "Invalid update: invalid number of sections. The number of sections contained in the collection view after the update (1) must be equal to the number of sections contained in the collection view before the update (1), plus or minus the number of sections inserted or deleted (1 inserted, 0 deleted).")) {
            try sections.validate(countsBefore: [2], countsAfter: [2])
        }
    }
}
