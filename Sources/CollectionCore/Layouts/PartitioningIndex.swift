extension RandomAccessCollection {
    /// The index of the first element for which `belongsInSecondPartition` is true,
    /// in a collection where every such element comes after every other (binary
    /// search: O(log n) calls). `endIndex` when there is none.
    @inlinable
    func partitioningIndex(where belongsInSecondPartition: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var n = count
        while n > 0 {
            let half = n / 2
            let mid = index(low, offsetBy: half)
            if try belongsInSecondPartition(self[mid]) {
                n = half
            } else {
                low = index(after: mid)
                n -= half + 1
            }
        }
        return low
    }
}
