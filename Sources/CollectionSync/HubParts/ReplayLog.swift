import CollectionCore
import CollectionProtocol
import Foundation

/// One accepted edit as every viewer can replay it: index paths and identifiers,
/// no per-viewer attributes. Index paths are kept flat (two or four 32-bit numbers
/// each), so that a log of shuffles of large sections stays small.
public struct LoggedBatch: Sendable, Codable, Equatable {
    /// Its sequence number.
    public let seq: Int
    /// Who made it.
    public let by: String
    private let deletePaths: [Int32]
    /// The deleted items, in the order of ``deletes``.
    public let deletedIds: [String]
    private let insertPaths: [Int32]
    /// The inserted items, in the order of ``inserts``.
    public let insertedIds: [String]
    private let movePaths: [Int32]
    private let reloadPaths: [Int32]
    /// Every section's identity, count and checksum after it.
    public let sections: [SectionInfo]

    /// A batch, with index paths as UIKit's batch updates name them.
    public init(seq: Int, by: String, deletes: [IndexPath], deletedIds: [String], inserts: [IndexPath], insertedIds: [String],
         moves: [(from: IndexPath, to: IndexPath)], reloads: [IndexPath], sections: [SectionInfo]) {
        self.seq = seq
        self.by = by
        deletePaths = Self.flatten(deletes)
        self.deletedIds = deletedIds
        insertPaths = Self.flatten(inserts)
        self.insertedIds = insertedIds
        movePaths = moves.flatMap { [Int32($0.from.section), Int32($0.from.item), Int32($0.to.section), Int32($0.to.item)] }
        reloadPaths = Self.flatten(reloads)
        self.sections = sections
    }

    private static func flatten(_ paths: [IndexPath]) -> [Int32] { paths.flatMap { [Int32($0.section), Int32($0.item)] } }

    private static func pairs(_ flat: [Int32]) -> [[Int]] {
        stride(from: 0, to: flat.count, by: 2).map { [Int(flat[$0]), Int(flat[$0 + 1])] }
    }

    /// Deleted index paths (before the batch), as `[section, item]`.
    public var deletes: [[Int]] { Self.pairs(deletePaths) }
    /// Inserted index paths (after the batch).
    public var inserts: [[Int]] { Self.pairs(insertPaths) }
    /// Reloaded index paths (before the batch).
    public var reloads: [[Int]] { Self.pairs(reloadPaths) }
    /// Moves, `[[section, item], [section, item]]`.
    public var moves: [WireMove] {
        stride(from: 0, to: movePaths.count, by: 4).map {
            [[Int(movePaths[$0]), Int(movePaths[$0 + 1])], [Int(movePaths[$0 + 2]), Int(movePaths[$0 + 3])]]
        }
    }

    /// Writes what `Codable` would, member for member (a store keeps it; see ``CommittedBatch/json``).
    func write(to w: inout JSONWriter) {
        func numbers(_ values: [Int32]) {
            w.beginArray()
            for v in values { w.int(Int(v)) }
            w.endArray()
        }
        w.beginObject()
        w.key("seq"); w.int(seq)
        w.key("by"); w.string(by)
        w.key("deletePaths"); numbers(deletePaths)
        w.key("deletedIds"); w.strings(deletedIds)
        w.key("insertPaths"); numbers(insertPaths)
        w.key("insertedIds"); w.strings(insertedIds)
        w.key("movePaths"); numbers(movePaths)
        w.key("reloadPaths"); numbers(reloadPaths)
        w.key("sections")
        w.beginArray()
        for info in sections {
            w.beginObject()
            w.key("id"); w.string(info.id)
            w.key("title"); w.string(info.title)
            w.key("count"); w.int(info.count)
            w.key("checksum"); w.string(info.checksum)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}

/// The last `capacity` batches, to bring a reconnecting client up to date.
struct ReplayLog {
    let capacity: Int
    private var entries: [LoggedBatch] = []
    private var head = 0

    init(capacity: Int) { self.capacity = capacity }

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
