import Foundation
import Locking

/// Where collections are kept between runs: a narrow protocol, so that an
/// embedded store (SQLite), one in memory (tests) and one shared by several
/// servers (PostgreSQL) are interchangeable.
///
/// Calls come one at a time, from the server's service thread or its writer
/// thread (appends run there, beside the work of the turn), except
/// ``writeProblem``, which may be asked while an append is under way.
public protocol CollectionStore: AnyObject, Sendable {
    /// Everything kept of the collection called `name`, or nil when it holds none.
    /// - Parameter name: The collection's name.
    /// - Returns: Its contents and recent batches.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func load(_ name: String) throws(StoreError) -> StoredCollection?
    /// Keeps a new collection: its epoch and its contents at its sequence number.
    /// - Parameter collection: The new collection.
    /// - Throws: ``StoreError`` when it cannot be kept.
    func create(_ collection: StoredCollection) throws(StoreError)
    /// Keeps committed batches (of one or more collections) in one transaction:
    /// all of them or, throwing, none. Durable when it returns.
    /// - Parameter batches: The batches, in order; each follows the one before of its collection.
    /// - Throws: ``StoreError``, and none of them is kept.
    func append(_ batches: [CommittedBatch]) throws(StoreError)
    /// The batches of `name` after sequence number `seq`, oldest first (those
    /// still kept: a store folds old ones into the collection).
    /// - Parameters:
    ///   - name: The collection's name.
    ///   - seq: The number of the last batch the caller holds.
    /// - Returns: The batches after it that the store still keeps.
    /// - Throws: ``StoreError`` when the store cannot be read.
    func log(of name: String, after seq: Int) throws(StoreError) -> [CommittedBatch]
    /// Why an append would fail now (a read-only folder, a full disk), or nil:
    /// edits are refused up front while this says so, and viewers keep watching.
    var writeProblem: StoreError? { get }
    /// The server is stopping: calls under way, and any made after, give up within
    /// `seconds`, so that a database that does not answer cannot hold the stop.
    /// A store whose calls never wait on anything else ignores it (the default).
    /// - Parameter seconds: How long a call may still wait.
    func abandonWaits(within seconds: Double)
}

extension CollectionStore {
    /// Does nothing: calls end by themselves.
    public func abandonWaits(within seconds: Double) {}
}

/// A collection as a store gives it back.
public struct StoredCollection: Sendable, Codable, Equatable {
    /// The collection's name.
    public var name: String
    /// Its history's name: viewers from the same epoch resume.
    public var epoch: String
    /// The number of its last batch.
    public var seq: Int
    /// Its contents after that batch.
    public var model: CollectionModel
    /// The next serial number for items viewers insert (ids are never reused).
    public var nextSerial: Int
    /// The last batches kept, oldest first: replayed to viewers that resume, and
    /// the op ids they hold are remembered, so that a resent edit is not applied twice.
    public var recent: [CommittedBatch]

    /// A stored collection.
    /// - Parameters:
    ///   - name: The collection's name.
    ///   - epoch: Its history's name.
    ///   - seq: The number of its last batch.
    ///   - model: Its contents after that batch.
    ///   - nextSerial: The next serial number for inserted items.
    ///   - recent: The last batches kept, oldest first.
    public init(name: String, epoch: String, seq: Int, model: CollectionModel, nextSerial: Int, recent: [CommittedBatch] = []) {
        self.name = name
        self.epoch = epoch
        self.seq = seq
        self.model = model
        self.nextSerial = nextSerial
        self.recent = recent
    }
}

extension StoredCollection {
    /// Brings ``model`` (stored at ``seq``) up to the last of ``recent``, checking
    /// that the batches follow on with no gap; a gap throws `corrupt`, naming it.
    /// - Throws: ``StoreError`` `corrupt` when a batch does not follow the one before.
    public mutating func applyRecent() throws(StoreError) {
        var expected = recent.first?.seq ?? seq + 1
        for batch in recent {
            guard batch.seq == expected else {
                throw StoreError(.corrupt, "the log of '\(name)' jumps from batch \(expected - 1) to \(batch.seq)")
            }
            expected += 1
            guard batch.seq > seq else { continue }
            batch.delta.apply(to: &model)
            seq = batch.seq
            nextSerial = batch.nextSerial
        }
    }
}

/// One committed batch, as a store keeps it.
public struct CommittedBatch: Sendable, Codable, Equatable {
    /// The collection it changed.
    public var collection: String
    /// Its sequence number.
    public var seq: Int
    /// The op id of the edit that made it (none for the server's changes).
    public var op: String?
    /// A fingerprint of that edit: the same op id with another edit is refused.
    public var fingerprint: UInt64
    /// Who made it: a viewer id, or `server`.
    public var by: String
    /// How the model changed.
    public var delta: ModelDelta
    /// What viewers that resume are sent of it.
    public var replay: LoggedBatch
    /// The next serial number for inserted items, after it.
    public var nextSerial: Int

    /// A committed batch.
    /// - Parameters:
    ///   - collection: The collection's name.
    ///   - seq: Its number.
    ///   - op: The op id of the edit it came from (nil: the server's change).
    ///   - fingerprint: The model's fingerprint after it.
    ///   - by: A viewer id, or `server`.
    ///   - delta: How the model changed.
    ///   - replay: What viewers that resume are sent of it.
    ///   - nextSerial: The next serial number for inserted items, after it.
    public init(collection: String, seq: Int, op: String?, fingerprint: UInt64, by: String, delta: ModelDelta, replay: LoggedBatch, nextSerial: Int) {
        self.collection = collection
        self.seq = seq
        self.op = op
        self.fingerprint = fingerprint
        self.by = by
        self.delta = delta
        self.replay = replay
        self.nextSerial = nextSerial
    }
}

/// Why a store could not do what it was asked.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Sendable {
        /// The folder or the file cannot be written.
        case readOnly = "read_only"
        /// No room left (disk, quota, or the size cap).
        case full
        /// The file is not a database of ours, or is damaged.
        case corrupt
        /// Written by a newer version of the server.
        case newerSchema = "newer_schema"
        /// Another failure of the database or the disk.
        case failed
    }
    /// What kind of failure.
    public var kind: Kind
    /// What happened, for people.
    public var message: String

    /// A failure.
    /// - Parameters:
    ///   - kind: What kind of failure.
    ///   - message: What happened, for people.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// A store that keeps collections in this process only: what `--in-memory` and
/// tests use. It holds every batch (no folding); `failing` makes appends fail.
public final class InMemoryCollectionStore: CollectionStore, @unchecked Sendable {
    private let lock = Locked()
    private var collections: [String: StoredCollection] = [:]
    private var logs: [String: [CommittedBatch]] = [:]
    private var failure: StoreError?
    private var appendFailure: StoreError?
    /// How many transactions appended batches (one per group commit).
    public private(set) var transactions = 0

    /// An empty store.
    public init() {}

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try lock.whileLocked(body)
    }

    /// Makes every append fail with `error`, as ``writeProblem`` says (nil: work again).
    /// - Parameter error: The failure (nil: none).
    public func setFailure(_ error: StoreError?) { locked { failure = error } }

    /// Makes appends fail with `error` while ``writeProblem`` says nothing: a disk
    /// that fills in the middle of a commit (nil: work again).
    /// - Parameter error: The failure (nil: none).
    public func setAppendFailure(_ error: StoreError?) { locked { appendFailure = error } }

    public var writeProblem: StoreError? { locked { failure } }

    public func load(_ name: String) throws(StoreError) -> StoredCollection? {
        locked {
            guard var stored = collections[name] else { return nil }
            let log = logs[name] ?? []
            for batch in log where batch.seq > stored.seq {
                batch.delta.apply(to: &stored.model)
                stored.seq = batch.seq
                stored.nextSerial = batch.nextSerial
            }
            stored.recent = log
            return stored
        }
    }

    public func create(_ collection: StoredCollection) throws(StoreError) {
        try locked { () throws(StoreError) in
            if let failure { throw failure }
            collections[collection.name] = collection
            logs[collection.name] = []
        }
    }

    public func append(_ batches: [CommittedBatch]) throws(StoreError) {
        guard !batches.isEmpty else { return }
        try locked { () throws(StoreError) in
            if let failure = failure ?? appendFailure { throw failure }
            var last: [String: Int] = [:]
            for b in batches {
                let previous = last[b.collection] ?? logs[b.collection]?.last?.seq ?? collections[b.collection]?.seq
                guard let previous, b.seq == previous + 1 else {
                    throw StoreError(.failed, "batch \(b.seq) of '\(b.collection)' does not follow \(previous.map(String.init) ?? "nothing")")
                }
                last[b.collection] = b.seq
            }
            for b in batches { logs[b.collection, default: []].append(b) }
            transactions += 1
        }
    }

    public func log(of name: String, after seq: Int) throws(StoreError) -> [CommittedBatch] {
        locked { (logs[name] ?? []).filter { $0.seq > seq } }
    }
}
