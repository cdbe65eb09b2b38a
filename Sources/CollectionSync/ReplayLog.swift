import CollectionProtocol

/// One accepted edit as every viewer can replay it: index paths and identifiers,
/// no per-viewer attributes.
struct LoggedBatch {
    let seq: Int
    let by: String
    let deletes: [[Int]]
    let deletedIds: [String]
    let inserts: [[Int]]
    let insertedIds: [String]
    let moves: [WireMove]
    let reloads: [[Int]]
    let sections: [SectionInfo]
}

/// The last `capacity` batches, to bring a reconnecting client up to date.
struct ReplayLog {
    let capacity: Int
    private var entries: [LoggedBatch] = []
    private var head = 0

    init(capacity: Int) { self.capacity = capacity }

    /// Batches kept (the entries before `head` are dropped lazily, in bulk).
    var count: Int { entries.count - head }

    /// Entries held in memory, including those waiting to be dropped.
    var storage: Int { entries.count }

    mutating func append(_ batch: LoggedBatch) {
        entries.append(batch)
        if entries.count - head > capacity { head += 1 }
        if head > 1024 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }

    /// The batches after `seq`, or nil when some of them are no longer kept.
    func batches(after seq: Int, upTo current: Int) -> [LoggedBatch]? {
        guard seq <= current else { return nil }
        if seq == current { return [] }
        guard head < entries.count, entries[head].seq <= seq + 1 else { return nil }
        return entries[head...].filter { $0.seq > seq }
    }
}
