import CollectionProtocol
import CollectionSync
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Locking

/// The store several servers (nodes) share: PostgreSQL, through postgres-nio. It
/// is the authority on order. An edit locks its collections' rows
/// (`SELECT … FOR UPDATE`), hands back what other nodes committed since (so the
/// node checks the change against the latest state), appends the batches with
/// the next numbers and commits; a `NOTIFY` tells the other nodes, which read the
/// batches from the log (see ``SharedCollectionStore``).
///
/// Its tables are ``PostgresSchema``'s. Past ``Options/foldEvery`` batches the log is
/// folded into the model, off the caller's thread, keeping the last
/// ``Options/keepBatches`` (replayed to viewers that resume, op ids remembered).
///
/// Calls block their thread until PostgreSQL answers, or ``Options/queryTimeout``
/// passes (a deadline kept on the calling thread, not on postgres-nio's event
/// loop). A lost connection is made again on the next call, no sooner than a
/// delay that doubles to 5 s; while it is down, ``writeProblem`` says so and
/// edits are refused. Nothing the event loop runs takes the store's lock: a
/// thread holding it may be waiting for that loop.
public final class PostgresCollectionStore: SharedCollectionStore, @unchecked Sendable {
    /// Tuning.
    public struct Options: Sendable {
        /// Batches after which the log is folded into the stored model.
        public var foldEvery = 1_000
        /// Batches kept after a fold.
        public var keepBatches = 10_000
        /// The channel commits are announced on.
        public var channel = "collection_batches"
        /// Seconds a statement may take before its connection is closed and the
        /// statement fails (an edit waiting on another node's lock longer than this
        /// is refused): a node never waits forever on a server that does not answer.
        /// Edits wait on the service thread, so its viewers wait this long at most.
        public var queryTimeout = 10.0
        /// The defaults.
        public init() {}
    }

    /// Where the server is.
    public let url: PostgresURL
    /// Makes connections and runs statements, each wait bounded.
    let connector: PostgresConnector
    /// This node's name in notifications (its own are not acted on).
    public let nodeID: String
    let options: Options
    let logger: Logger
    let events = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// The group's one loop: every connection's, and the thread that must never
    /// take ``lock``.
    let loop: any EventLoop
    /// Every wait on a future: bounded on the waiting thread (BoundedWaits.swift).
    let waits = BoundedWaits()
    /// Guards everything below.
    let lock = Locked(recursive: true)
    private var writer: PostgresConnection?
    /// When the connection edits use is tried again after a failure.
    private var backoff = ConnectBackoff()
    /// What is known of the server without asking it (read by ``writeProblem`` and
    /// health checks, which must not wait for a query under way).
    let problem = Locked<StoreError?>(nil)
    private var probe: DispatchSourceTimer?
    // The open edit: each collection's last batch in the store, what it appended.
    private var editHeads: [String: Int]?
    private var editAppended: Set<String> = []
    private var editFailed = false
    /// Each collection's base (the batch its stored model is at), for folds.
    var baseSeq: [String: Int] = [:]
    /// Each collection's last batch this node committed: a fold ending looks here,
    /// under the lock, for commits its own query of the log's end missed.
    var committedHeads: [String: Int] = [:]
    var folding: Set<String> = []
    var foldDecisionHook: (@Sendable () -> Void)?
    /// Names of the collections this node loaded or made (told after a reconnection).
    var known: Set<String> = []
    var commitHandler: (@Sendable (String) -> Void)?
    var presenceHandler: (@Sendable (String, String) -> Void)?
    /// Presence is sent from here, on a connection of its own (behind `lock`).
    let presenceQueue = DispatchQueue(label: "collection-postgres-presence")
    var presenceConnection: PostgresConnection?
    var presenceRetryAt = 0.0
    var listener: PostgresConnection?
    var closed = false
    /// Folds run here, at the lowest CPU priority (see ``BackgroundThread``).
    let foldQueue = BackgroundThread(name: "postgres-fold")
    let notifyQueue = DispatchQueue(label: "collection-postgres-notify")

    /// Connects to the server `url` names and makes the tables when missing.
    public init(url: String, nodeID: String = String(UUID().uuidString.prefix(8)).lowercased(), options: Options = Options(), logger: Logger = Logger(label: "collection-postgres")) throws(StoreError) {
        self.url = try PostgresURL(url)
        self.nodeID = nodeID
        self.options = options
        self.logger = logger
        loop = events.next()
        connector = try PostgresConnector(url: self.url, loop: loop, waits: waits, queryTimeout: options.queryTimeout, logger: logger)
        try locked { () throws(StoreError) in
            let c = try connection()
            do {
                for statement in PostgresSchema.statements { try run(statement, on: c) }
            } catch {
                _ = try? run("ROLLBACK", on: c)
                throw PostgresConnector.storeError(error)
            }
        }
        // Every second, a lost connection is made again (with the same backoff), so
        // that health checks see the database come back before the next edit does.
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "collection-postgres-probe"))
        timer.schedule(deadline: .now() + 1, repeating: 1, leeway: .milliseconds(200))
        timer.setEventHandler { [weak self] in self?.probeConnection() }
        timer.resume()
        probe = timer
    }

    deinit { close() }

    /// Closes the connections (the server stopped).
    public func close() {
        let connections: [PostgresConnection] = locked {
            closed = true
            probe?.cancel()
            probe = nil
            defer { writer = nil; listener = nil; presenceConnection = nil }
            return [writer, listener, presenceConnection].compactMap { $0 }
        }
        for c in connections { _ = try? waits.value(of: c.close(), within: 2) }
        try? events.syncShutdownGracefully()
    }

    /// The server is stopping: statements under way, and any after, give up within
    /// `seconds` (each is refused; an edit under way is not acknowledged).
    public func abandonWaits(within seconds: Double) {
        waits.cutShort(within: seconds)
    }

    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        // The event loop must never wait for the lock: its holder may be waiting for the loop.
        precondition(!loop.inEventLoop, "the store's lock taken on postgres-nio's event loop")
        return try lock.whileLocked(body)
    }

    // MARK: Connections

    static var now: Double { Date().timeIntervalSinceReferenceDate }

    /// The connection edits use, made again (with backoff) when it was lost.
    private func connection() throws(StoreError) -> PostgresConnection {
        if let writer, !writer.isClosed { return writer }
        writer = nil
        if closed { throw StoreError(.failed, "the store was closed") }
        if let refusal = backoff.refusal(at: Self.now) { throw refusal }
        do {
            return adopt(try connect())
        } catch {
            noteFailure(error)
            throw error
        }
    }

    /// `c` becomes the connection edits use (lock held).
    private func adopt(_ c: PostgresConnection) -> PostgresConnection {
        writer = c
        backoff.connected()
        problem.withLock { $0 = nil }
        return c
    }

    /// A connection could not be made: the next try waits (lock held).
    private func noteFailure(_ error: StoreError) {
        backoff.failed(error, at: Self.now)
        problem.withLock { $0 = error }
    }

    /// Every second: a lost connection is made again (with the same backoff), so
    /// that health checks see the database come back before the next edit does.
    /// Connects without the lock: edits are not held up by an attempt.
    private func probeConnection() {
        let due = locked { !closed && (writer?.isClosed ?? true) && backoff.refusal(at: Self.now) == nil }
        guard due else { return }
        do {
            let c = try connect()
            let spare: PostgresConnection? = locked {
                guard !closed, writer?.isClosed ?? true else { return c }
                _ = adopt(c)
                return nil
            }
            if let spare { PostgresConnector.close(spare) }
        } catch {
            locked { noteFailure(error) }
        }
    }

    /// Runs a statement on `c` (``PostgresConnector/run(_:on:lost:)``); the
    /// connection edits use, lost, is made again on the next call.
    @discardableResult
    func run(_ query: PostgresQuery, on c: PostgresConnection) throws(StoreError) -> [PostgresRow] {
        try connector.run(query, on: c) { c in
            locked {
                guard c === writer else { return }
                writer = nil
                problem.withLock { $0 = StoreError(.failed, "lost the connection to PostgreSQL at \(url.description)") }
            }
        }
    }

    /// A new connection (``PostgresConnector/connect()``). Needs no lock.
    func connect() throws(StoreError) -> PostgresConnection { try connector.connect() }

    /// Why edits would fail now (the server unreachable, or the connection lost
    /// and not made again yet), or nil. Never waits.
    public var writeProblem: StoreError? { problem.withLock { $0 } }

    // MARK: Reading

    public func load(_ name: String) throws(StoreError) -> StoredCollection? {
        try locked { () throws(StoreError) -> StoredCollection? in
            let c = try connection()
            let head: PostgresRow?
            let bodies: [PostgresRow]
            do {
                try run("BEGIN ISOLATION LEVEL REPEATABLE READ", on: c)
                head = try run("SELECT epoch, seq, base_seq, next_serial, model FROM collection WHERE name = \(name)", on: c).first
                bodies = try run("SELECT body FROM batch WHERE collection = \(name) ORDER BY seq", on: c)
                try run("COMMIT", on: c)
            } catch {
                _ = try? run("ROLLBACK", on: c)
                throw PostgresConnector.storeError(error)
            }
            guard let head else { return nil }
            do {
                let (epoch, seq, base, nextSerial, model) = try head.decode((String, Int, Int, Int, ByteBuffer).self)
                var stored = StoredCollection(name: name, epoch: epoch, seq: base,
                                              model: try JSONDecoder().decode(CollectionModel.self, from: Data(model.readableBytesView)),
                                              nextSerial: nextSerial)
                stored.recent = try bodies.map { row in try Self.batch(row.decode(ByteBuffer.self)) }
                try stored.applyRecent()
                guard stored.seq == seq else {
                    throw StoreError(.corrupt, "the log of '\(name)' ends at batch \(stored.seq), the collection says \(seq)")
                }
                baseSeq[name] = base
                known.insert(name)
                return stored
            } catch let error as StoreError {
                throw error
            } catch {
                throw StoreError(.corrupt, "the stored '\(name)' cannot be read (\(error)); it was not changed")
            }
        }
    }

    static func batch(_ body: ByteBuffer) throws -> CommittedBatch {
        try JSONDecoder().decode(CommittedBatch.self, from: Data(body.readableBytesView))
    }

    public func log(of name: String, after seq: Int) throws(StoreError) -> [CommittedBatch] {
        try locked { () throws(StoreError) -> [CommittedBatch] in
            try batches(of: name, after: seq, on: try connection())
        }
    }

    private func batches(of name: String, after seq: Int, on c: PostgresConnection) throws(StoreError) -> [CommittedBatch] {
        let rows = try run("SELECT body FROM batch WHERE collection = \(name) AND seq > \(seq) ORDER BY seq", on: c)
        do {
            return try rows.map { try Self.batch($0.decode(ByteBuffer.self)) }
        } catch {
            throw StoreError(.corrupt, "a batch of '\(name)' cannot be read: \(error)")
        }
    }

    // MARK: Writing

    public func create(_ collection: StoredCollection) throws(StoreError) {
        let model: ByteBuffer
        do {
            model = ByteBuffer(bytes: try JSONEncoder().encode(collection.model))
        } catch {
            throw StoreError(.failed, "cannot encode '\(collection.name)': \(error)")
        }
        try locked { () throws(StoreError) in
            // Another node may have made it first: then this changes nothing.
            try run("""
                INSERT INTO collection (name, epoch, seq, base_seq, next_serial, model)
                VALUES (\(collection.name), \(collection.epoch), \(collection.seq), \(collection.seq), \(collection.nextSerial), \(model))
                ON CONFLICT (name) DO NOTHING
                """, on: try connection())
            known.insert(collection.name)
        }
    }

    public func beginEdit(_ collections: [String: Int]) throws(StoreError) -> [CommittedBatch] {
        try locked { () throws(StoreError) -> [CommittedBatch] in
            precondition(editHeads == nil, "an edit is already open")
            let c = try connection()
            let names = collections.keys.sorted()
            do {
                try run("BEGIN", on: c)
                // Locked in one order (by name): two nodes never wait for each other.
                let rows = try run("SELECT name, seq FROM collection WHERE name = ANY(\(names)) ORDER BY name FOR UPDATE", on: c)
                var heads: [String: Int] = [:]
                for row in rows {
                    do {
                        let (name, seq) = try row.decode((String, Int).self)
                        heads[name] = seq
                    } catch {
                        throw StoreError(.corrupt, "a collection row cannot be read: \(error)")
                    }
                }
                if let missing = names.first(where: { heads[$0] == nil }) {
                    throw StoreError(.failed, "the store holds no collection '\(missing)'")
                }
                var behind: [CommittedBatch] = []
                for name in names where heads[name]! > collections[name]! {
                    behind += try batches(of: name, after: collections[name]!, on: c)
                }
                editHeads = heads
                editAppended = []
                editFailed = false
                return behind
            } catch {
                _ = try? run("ROLLBACK", on: c)
                throw PostgresConnector.storeError(error)
            }
        }
    }

    public func append(_ batches: [CommittedBatch]) throws(StoreError) {
        guard !batches.isEmpty else { return }
        try locked { () throws(StoreError) in
            guard editHeads != nil else {
                // Outside an edit: one of its own, refused when another node got there first.
                var firsts: [String: Int] = [:]
                for b in batches where firsts[b.collection] == nil { firsts[b.collection] = b.seq - 1 }
                let behind = try beginEdit(firsts)
                guard behind.isEmpty else {
                    cancelEdit()
                    throw StoreError(.failed, "another node committed batch \(behind[0].seq) of '\(behind[0].collection)' first")
                }
                do {
                    try append(batches)
                    try commitEdit()
                } catch {
                    cancelEdit()
                    throw PostgresConnector.storeError(error)
                }
                return
            }
            let c = try connection()
            do {
                for b in batches {
                    guard let head = editHeads?[b.collection] else { throw StoreError(.failed, "'\(b.collection)' is not part of this edit") }
                    guard b.seq == head + 1 else { throw StoreError(.failed, "batch \(b.seq) of '\(b.collection)' does not follow \(head)") }
                    try run("INSERT INTO batch (collection, seq, body) VALUES (\(b.collection), \(b.seq), \(ByteBuffer(bytes: b.json)))", on: c)
                    editHeads?[b.collection] = b.seq
                    editAppended.insert(b.collection)
                }
            } catch {
                editFailed = true
                throw PostgresConnector.storeError(error)
            }
        }
    }

    public func commitEdit() throws(StoreError) {
        let due: [String] = try locked { () throws(StoreError) -> [String] in
            guard let heads = editHeads else { return [] }
            defer {
                editHeads = nil
                editAppended = []
            }
            let c = try connection()
            if editFailed {
                _ = try? run("ROLLBACK", on: c)
                throw StoreError(.failed, "a batch of this edit could not be written; nothing was kept")
            }
            do {
                for name in editAppended.sorted() {
                    let payload = "\(nodeID) \(name)"
                    try run("UPDATE collection SET seq = \(heads[name]!) WHERE name = \(name)", on: c)
                    // Delivered on commit, to every node listening (this one ignores its own).
                    try run("SELECT pg_notify(\(options.channel), \(payload))", on: c)
                }
                try run("COMMIT", on: c)
            } catch {
                _ = try? run("ROLLBACK", on: c)
                throw PostgresConnector.storeError(error)
            }
            for name in editAppended { committedHeads[name] = heads[name]! }
            return editAppended.filter { name in
                guard let base = baseSeq[name], heads[name]! - base >= options.foldEvery, !folding.contains(name) else { return false }
                folding.insert(name)
                return true
            }.sorted()
        }
        for name in due { scheduleFold(name) }
    }

    public func cancelEdit() {
        locked {
            guard editHeads != nil else { return }
            editHeads = nil
            editAppended = []
            if let writer, !writer.isClosed { _ = try? run("ROLLBACK", on: writer) }
        }
    }
}
