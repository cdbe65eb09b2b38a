import CollectionProtocol
import CollectionSync
import Foundation
import GRDB
import Locking

/// The embedded store: one SQLite database (`collections.sqlite`) in a data
/// folder, in WAL mode, written through GRDB. Each ``append(_:)`` is one
/// transaction, synced to disk before it returns (`synchronous=FULL`; see
/// ``Options/synchronous``).
///
/// Per collection it keeps a stored state (its contents at some sequence
/// number) and the batches after it; past ``Options/foldEvery`` batches the
/// log is folded into the stored state, and only the last ``Options/keepBatches``
/// are kept (for viewers that resume, and for remembered op ids).
///
/// Opening refuses, with a message that says what to do, a file that is not a
/// database, a damaged one, and one written by a newer schema: nothing is ever
/// wiped. A folder that cannot be written is opened read-only: what it holds is
/// served, and ``writeProblem`` refuses edits.
public final class SQLiteCollectionStore: CollectionStore, @unchecked Sendable {
    /// Tuning and limits.
    public struct Options: Sendable {
        /// Batches after which the log is folded into the stored collection.
        public var foldEvery = 1_000
        /// Batches kept after a fold (replayed to viewers that resume; their op ids are remembered).
        public var keepBatches = 10_000
        /// Bytes the database may grow to (nil: no cap); past it appends fail as `full`.
        public var maximumSize: Int?
        /// Free bytes the disk must keep: below that, edits are refused as `full`
        /// before SQLite meets a full disk in the middle of a commit.
        public var reserveBytes = 16 * 1_048_576
        /// Opens the database read-only even when the folder could be written.
        public var readOnly = false
        /// How each commit reaches the disk.
        public var synchronous = Synchronous.full

        /// SQLite's `synchronous` setting, as it matters in WAL mode.
        public enum Synchronous: String, Sendable, CaseIterable {
            /// Every commit is synced to disk before it returns: an acknowledged edit
            /// survives a crash of the machine (a power cut), at one `fsync` per commit.
            case full
            /// Commits are written to the log without waiting for the disk: an
            /// acknowledged edit survives a crash of the server (SIGKILL), not of the
            /// machine, whose last commits may roll back.
            case normal
        }
        /// The defaults.
        public init() {}
    }

    /// The database file.
    public let path: String
    /// Whether the folder could not be written when opened: nothing is ever written then.
    public let isReadOnly: Bool
    private let options: Options
    private let queue: DatabaseQueue
    private let directory: String
    // Touched by one call at a time (appends, loads and creates never overlap).
    private var lastSeq: [String: Int] = [:]
    // Shared with the folding queue: behind `foldLock`.
    private var baseSeq: [String: Int] = [:]
    private var folding: Set<String> = []
    /// Each collection's last batch, as the fold thread sees it.
    private var foldHeads: [String: Int] = [:]
    private let foldLock = Locked()
    /// Folds run here, off the caller's thread and at the lowest CPU priority (see
    /// ``BackgroundThread``): a fold reads and applies a thousand batches (about
    /// 0.1 s for 2,200 items), which the service loop must not wait for.
    private let foldQueue = BackgroundThread(name: "sqlite-fold")
    private var freeSpaceChecked = (at: 0.0, problem: StoreError?.none)

    /// Opens (creating it when missing) the database in `directory`.
    /// - Parameters:
    ///   - directory: The folder the database file is in (made when missing).
    ///   - options: The size cap, the fold threshold and the like.
    /// - Throws: ``StoreError``: `readOnly`, `corrupt`, `newerSchema` or `failed`, naming the file.
    public init(directory: String, options: Options = Options()) throws(StoreError) {
        self.directory = directory
        self.options = options
        path = URL(fileURLWithPath: directory).appendingPathComponent("collections.sqlite").path
        let fm = FileManager.default
        if !fm.fileExists(atPath: directory) {
            do {
                try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw StoreError(.readOnly, "cannot create the data folder \(directory): \(error.localizedDescription)")
            }
        }
        let exists = fm.fileExists(atPath: path)
        isReadOnly = options.readOnly || access(directory, W_OK) != 0 || (exists && access(path, W_OK) != 0)
        if isReadOnly && !exists {
            throw StoreError(.readOnly, "the data folder \(directory) cannot be written and holds no database")
        }
        var config = Configuration()
        config.readonly = isReadOnly
        if !isReadOnly { config.journalMode = .wal }
        config.label = "collections"
        let opened: DatabaseQueue
        do {
            opened = try DatabaseQueue(path: isReadOnly ? "file:\(path)?immutable=1" : path, configuration: config)
        } catch {
            throw Self.openingError(error, path: path)
        }
        queue = opened
        do {
            try queue.inDatabase { db in
                let check = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard check == ["ok"] else { throw StoreError(.corrupt, "\(path) is damaged (\(check.prefix(3).joined(separator: "; "))); restore it from a backup or move it away. It was not changed.") }
                if !isReadOnly {
                    try db.execute(sql: "PRAGMA synchronous = \(options.synchronous.rawValue.uppercased())")
                    if let maximumSize = options.maximumSize {
                        let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
                        try db.execute(sql: "PRAGMA max_page_count = \(max(1, maximumSize / pageSize))")
                    }
                }
            }
            let migrator = Self.migrator
            let (superseded, complete) = try queue.read { db in (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db)) }
            if superseded {
                throw StoreError(.newerSchema, "\(path) was written by a newer version of collection-server (its schema has migrations this one does not know); run that version, or move the file away. It was not changed.")
            }
            if !complete {
                guard !isReadOnly else { throw StoreError(.readOnly, "\(path) needs its schema brought up to date, and the folder cannot be written") }
                try migrator.migrate(queue)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw Self.openingError(error, path: path)
        }
    }

    /// The schema, one migration per version (GRDB's migrator remembers which ran).
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: collections and their batches") { db in
            try db.create(table: "collection") { t in
                t.primaryKey("name", .text)
                t.column("epoch", .text).notNull()
                t.column("seq", .integer).notNull()
                t.column("nextSerial", .integer).notNull()
                t.column("model", .blob).notNull()
            }
            try db.create(table: "batch", options: [.withoutRowID]) { t in
                t.column("collection", .text).notNull().references("collection", onDelete: .cascade)
                t.column("seq", .integer).notNull()
                t.column("body", .blob).notNull()
                t.primaryKey(["collection", "seq"])
            }
        }
        return migrator
    }

    private static func openingError(_ error: any Error, path: String) -> StoreError {
        if let db = error as? DatabaseError {
            switch db.resultCode {
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return StoreError(.corrupt, "\(path) is not a collection database or is damaged (\(db.message ?? "\(db.resultCode)")); move it away or restore a backup. It was not changed.")
            case .SQLITE_READONLY, .SQLITE_CANTOPEN, .SQLITE_PERM:
                return StoreError(.readOnly, "cannot open \(path) (\(db.message ?? "\(db.resultCode)"))")
            default: break
            }
        }
        return StoreError(.failed, "cannot open \(path): \(error)")
    }

    /// A write failure, by kind.
    private static func writeError(_ error: any Error) -> StoreError {
        if let e = error as? StoreError { return e }
        if let db = error as? DatabaseError {
            switch db.resultCode {
            case .SQLITE_FULL: return StoreError(.full, "the database is full (\(db.message ?? "disk or size cap reached")); edits are refused until there is room")
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN: return StoreError(.readOnly, "the database cannot be written (\(db.message ?? "read-only")); edits are refused")
            case .SQLITE_CORRUPT, .SQLITE_NOTADB: return StoreError(.corrupt, "the database is damaged (\(db.message ?? "corrupt")); edits are refused")
            default: return StoreError(.failed, "the database failed (\(db.message ?? "\(db.resultCode)")); edits are refused")
            }
        }
        return StoreError(.failed, "the database failed: \(error)")
    }

    /// Room kept under ``Options/maximumSize`` for the next turn's batches.
    static let sizeSlack = 64 * 1024

    private static let encoder = JSONEncoder()

    public var writeProblem: StoreError? {
        if isReadOnly { return StoreError(.readOnly, "the data folder \(directory) is read-only; edits are refused while viewers keep watching") }
        let now = Date().timeIntervalSinceReferenceDate
        if now - freeSpaceChecked.at > 1 {
            var problem: StoreError?
            if let free = try? FileManager.default.attributesOfFileSystem(forPath: directory)[.systemFreeSize] as? Int, free < options.reserveBytes {
                problem = StoreError(.full, "the disk holding \(directory) has \(free / 1024) KiB free (less than the \(options.reserveBytes / 1_048_576) MiB kept in reserve); edits are refused until there is room")
            }
            freeSpaceChecked = (now, problem)
        }
        if let problem = freeSpaceChecked.problem { return problem }
        if let maximumSize = options.maximumSize, let used = try? queue.inDatabase({ db in
            try Int.fetchOne(db, sql: "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
        }), used + Self.sizeSlack > maximumSize {
            return StoreError(.full, "the database holds \(used / 1024) KiB, near its cap of \(maximumSize / 1024) KiB; edits are refused")
        }
        return nil
    }

    public func load(_ name: String) throws(StoreError) -> StoredCollection? {
        do {
            let loaded: StoredCollection? = try queue.read { db in
                guard let row = try Row.fetchOne(db, sql: "SELECT epoch, seq, nextSerial, model FROM collection WHERE name = ?", arguments: [name]) else { return nil }
                var stored = StoredCollection(name: name, epoch: row["epoch"], seq: row["seq"],
                                              model: try JSONDecoder().decode(CollectionModel.self, from: row["model"] as Data),
                                              nextSerial: row["nextSerial"])
                let bodies = try Data.fetchAll(db, sql: "SELECT body FROM batch WHERE collection = ? ORDER BY seq", arguments: [name])
                stored.recent = try bodies.map { try JSONDecoder().decode(CommittedBatch.self, from: $0) }
                return stored
            }
            guard var stored = loaded else { return nil }
            foldLock.whileLocked { baseSeq[name] = stored.seq }
            do {
                try stored.applyRecent()
            } catch {
                throw StoreError(.corrupt, "\(path): \(error.message); it was not changed")
            }
            func counts(_ infos: [SectionInfo]) -> [String] { infos.map { "\($0.id) \($0.count) \($0.checksum)" } }
            if let last = stored.recent.last, last.seq == stored.seq, counts(last.replay.sections) != counts(stored.model.sectionInfos) {
                throw StoreError(.corrupt, "\(path): replaying the log of '\(name)' does not give the checksums its batch \(last.seq) recorded; it was not changed")
            }
            lastSeq[name] = stored.seq
            return stored
        } catch let error as StoreError {
            throw error
        } catch let error as DecodingError {
            throw StoreError(.corrupt, "\(path): the stored '\(name)' cannot be read (\(error)); it was not changed")
        } catch {
            throw Self.openingError(error, path: path)
        }
    }

    public func create(_ collection: StoredCollection) throws(StoreError) {
        if isReadOnly { throw writeProblem! }
        do {
            let model = try Self.encoder.encode(collection.model)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO collection (name, epoch, seq, nextSerial, model) VALUES (?, ?, ?, ?, ?)",
                               arguments: [collection.name, collection.epoch, collection.seq, collection.nextSerial, model])
            }
            lastSeq[collection.name] = collection.seq
            foldLock.whileLocked { baseSeq[collection.name] = collection.seq }
        } catch {
            throw Self.writeError(error)
        }
    }

    public func append(_ batches: [CommittedBatch]) throws(StoreError) {
        guard !batches.isEmpty else { return }
        if isReadOnly { throw writeProblem! }
        var next = lastSeq
        for b in batches {
            if next[b.collection] == nil { next[b.collection] = try storedSeq(of: b.collection) }
            guard let previous = next[b.collection] else { throw StoreError(.failed, "no collection '\(b.collection)' in \(path)") }
            guard b.seq == previous + 1 else { throw StoreError(.failed, "batch \(b.seq) of '\(b.collection)' does not follow \(previous)") }
            next[b.collection] = b.seq
        }
        do {
            let bodies = batches.map(\.json)
            try queue.write { db in
                let insert = try db.cachedStatement(sql: "INSERT INTO batch (collection, seq, body) VALUES (?, ?, ?)")
                for (b, body) in zip(batches, bodies) { try insert.execute(arguments: [b.collection, b.seq, body]) }
            }
        } catch {
            throw Self.writeError(error)
        }
        lastSeq = next
        for name in Set(batches.map(\.collection)) {
            let due = foldLock.whileLocked {
                foldHeads[name] = next[name]
                guard (next[name] ?? 0) - (baseSeq[name] ?? 0) >= options.foldEvery, !folding.contains(name) else { return false }
                folding.insert(name)
                return true
            }
            if due { scheduleFold(name) }
        }
    }

    /// Folds `name` on the fold thread; again at once if the log is still a bound
    /// past the fold (commits went on while it ran, at its low priority). A fold
    /// that fails leaves a longer log, nothing lost: it is tried again later.
    private func scheduleFold(_ name: String) {
        foldQueue.async { [self] in
            let before = foldLock.whileLocked { baseSeq[name] ?? 0 }
            let folded = (try? fold(name)) != nil
            let again = foldLock.whileLocked {
                let base = baseSeq[name] ?? 0
                guard folded, base > before, (foldHeads[name] ?? 0) - base >= options.foldEvery else {
                    folding.remove(name)
                    return false
                }
                return true
            }
            if again { scheduleFold(name) }
        }
    }

    /// Waits for the folds under way (tests; closing).
    public func waitForFolds() { foldQueue.sync() }

    /// The last sequence number kept of `name` (nil: no such collection), read
    /// from the database for a collection this store has not loaded or created.
    private func storedSeq(of name: String) throws(StoreError) -> Int? {
        do {
            return try queue.read { db -> Int? in
                guard let base = try Int.fetchOne(db, sql: "SELECT seq FROM collection WHERE name = ?", arguments: [name]) else { return nil }
                foldLock.whileLocked { baseSeq[name] = base }
                return max(base, try Int.fetchOne(db, sql: "SELECT MAX(seq) FROM batch WHERE collection = ?", arguments: [name]) ?? base)
            }
        } catch {
            throw Self.writeError(error)
        }
    }

    /// Folds the log of `name` into its stored state, keeping the last batches.
    /// Only the batches after the stored state are read and applied.
    func fold(_ name: String) throws {
        let (base, batches) = try queue.read { db -> (Row?, [Data]) in
            // Of the stored state and the batches after it, read together.
            let row = try Row.fetchOne(db, sql: "SELECT seq, nextSerial, model FROM collection WHERE name = ?", arguments: [name])
            let seq: Int = row?["seq"] ?? 0
            return (row, try Data.fetchAll(db, sql: "SELECT body FROM batch WHERE collection = ? AND seq > ? ORDER BY seq", arguments: [name, seq]))
        }
        guard let base else { return }
        var model = try JSONDecoder().decode(CollectionModel.self, from: base["model"] as Data)
        var seq: Int = base["seq"], nextSerial: Int = base["nextSerial"]
        let decoder = JSONDecoder()
        for body in batches {
            let batch = try decoder.decode(CommittedBatch.self, from: body)
            guard batch.seq == seq + 1 else { throw StoreError(.corrupt, "\(path): the log of '\(name)' jumps from batch \(seq) to \(batch.seq)") }
            batch.delta.apply(to: &model)
            seq = batch.seq
            nextSerial = batch.nextSerial
        }
        let encoded = try Self.encoder.encode(model)
        try queue.write { db in
            try db.execute(sql: "UPDATE collection SET seq = ?, nextSerial = ?, model = ? WHERE name = ?",
                           arguments: [seq, nextSerial, encoded, name])
            try db.execute(sql: "DELETE FROM batch WHERE collection = ? AND seq <= ?", arguments: [name, seq - options.keepBatches])
        }
        foldLock.whileLocked { baseSeq[name] = seq }
    }

    public func log(of name: String, after seq: Int) throws(StoreError) -> [CommittedBatch] {
        do {
            return try queue.read { db in
                try Data.fetchAll(db, sql: "SELECT body FROM batch WHERE collection = ? AND seq > ? ORDER BY seq", arguments: [name, seq])
                    .map { try JSONDecoder().decode(CommittedBatch.self, from: $0) }
            }
        } catch {
            throw Self.writeError(error)
        }
    }
}
