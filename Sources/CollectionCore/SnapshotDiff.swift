import Foundation

extension BatchUpdate {
    /// The batch that turns `old` into `new`: deletes, inserts, and the fewest
    /// moves (items in a longest increasing subsequence of their old positions stay
    /// put; only the others move). Sections present in both but reordered are
    /// deleted and inserted. The result passes ``validate(countsBefore:countsAfter:)``.
    public init<S, I>(from old: DiffableDataSourceSnapshot<S, I>, to new: DiffableDataSourceSnapshot<S, I>) {
        self.init()
        let oldSections = old.sectionIdentifiers, newSections = new.sectionIdentifiers
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
        deletedSections = oldSections.indices.filter { survivingNewForOld[$0] == nil }
        insertedSections = newSections.indices.filter { survivingOldForNew[$0] == nil }

        // Where every item sits in the surviving sections of each side.
        var oldPosition: [I: (section: Int, item: Int)] = [:]
        oldPosition.reserveCapacity(old.numberOfItems)
        for (o, s) in oldSections.enumerated() where survivingNewForOld[o] != nil {
            for (i, item) in old.itemIdentifiers(inSection: s).enumerated() { oldPosition[item] = (o, i) }
        }
        var newPosition: [I: (section: Int, item: Int)] = [:]
        newPosition.reserveCapacity(new.numberOfItems)
        for (n, s) in newSections.enumerated() where survivingOldForNew[n] != nil {
            for (i, item) in new.itemIdentifiers(inSection: s).enumerated() { newPosition[item] = (n, i) }
        }

        for (o, s) in oldSections.enumerated() where survivingNewForOld[o] != nil {
            for (i, item) in old.itemIdentifiers(inSection: s).enumerated() where newPosition[item] == nil {
                deletedItems.append(IndexPath(item: i, section: o))
            }
        }
        for (n, s) in newSections.enumerated() {
            guard let o = survivingOldForNew[n] else { continue }
            var sameSection: [(old: Int, new: Int)] = []
            for (i, item) in new.itemIdentifiers(inSection: s).enumerated() {
                guard let from = oldPosition[item] else {
                    insertedItems.append(IndexPath(item: i, section: n))
                    continue
                }
                if from.section == o {
                    sameSection.append((from.item, i))
                } else {
                    movedItems.append(ItemMove(from: IndexPath(item: from.item, section: from.section), to: IndexPath(item: i, section: n)))
                }
            }
            let stays = Set(longestIncreasingSubsequence(sameSection.map(\.old)))
            for (k, pair) in sameSection.enumerated() where !stays.contains(k) {
                movedItems.append(ItemMove(from: IndexPath(item: pair.old, section: o), to: IndexPath(item: pair.new, section: n)))
            }
        }
    }
}

/// Positions (into `values`) of one longest strictly increasing subsequence,
/// in increasing order. O(n log n) (patience sorting).
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
