import CollectionProtocol
import CollectionSync
import Foundation
import Logging
import WebSocketTransport
import Locking

/// The collections and the transport, behind one lock. Events arrive on the
/// transport's service thread; server-side changes come from any task. Every
/// change and the sending of its messages happen under the lock, so each viewer
/// gets batches in sequence order whoever made them.
///
/// The lock is recursive: a callback running under it (a delegate, a layout
/// provider, an action handler) may read or change a collection on the same
/// thread without waiting for itself.
final class Engine: @unchecked Sendable {
    // Everything below is read and written only with `lock` held.
    private(set) var hubs: [CollectionHub] = []
    private(set) var group: CollectionHubGroup?
    private var echo: Set<ConnectionID> = []
    /// Where messages go: the transport, or a test's connections in this process.
    private(set) var transport: (any EngineOutput)?
    private let lock = Locked(recursive: true)
    let logger: Logger
    /// What `/healthz` answers.
    let health = HealthState()
    /// Where the app's `async` changes run (AppChanges.swift).
    let changes = AppChanges()
    /// Connections opened that have not said hello: the transport is told when
    /// one does (``WebSocketServer/confirm(_:)``), and closes those that take too long.
    private var unconfirmed: Set<ConnectionID> = []
    /// Where stored collections are kept (nil: nothing is kept).
    private(set) var store: (any CollectionStore)?
    /// Each stored hub's journal (StoreJournal, below), by collection.
    private var journals: [String: StoreJournal] = [:]
    /// Collections whose data the app keeps: the store holds none of theirs.
    private(set) var appManaged: Set<String> = []
    /// Where the node's batches are on their way to the store, and the messages that
    /// wait for them (CommitPath.swift: a value that does no I/O; this engine does
    /// what it asks).
    var path = CommitPath()
    /// The append under way on ``writer`` (the path's first batches of the turn).
    private var writing: PendingAppend?
    /// Where that append runs, off the service thread (AppendThread.swift).
    private let writer = AppendThread()
    /// Whether the batches of one turn share one transaction (otherwise each
    /// message's batches are committed on their own).
    var groupCommit = true
    /// Set by a graceful stop: messages are not read any more.
    private var draining = false
    /// The store, when several servers share it (Engine+Nodes.swift).
    var shared: (any SharedCollectionStore)?
    /// Collections whose contents must be read again from the shared store before
    /// they take another change (a commit failed and the store could not be read).
    var stale: Set<String> = []
    /// The retries of readings of other nodes' batches that failed (Engine+Nodes.swift).
    var catchUpRetries = CatchUpRetries()
    /// Other nodes, and when each was last heard from (Engine+Presence.swift).
    var roster = NodeRoster()
    var presenceTimer: DispatchSourceTimer?

    static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    init(logger: Logger) { self.logger = logger }

    func attach(_ output: any EngineOutput) { locked { transport = output } }

    /// How deep the lock is held on its thread (a callback may take it again).
    private(set) var depth = 0

    func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try lock.whileLocked { () throws(E) -> T in
            depth += 1
            defer { depth -= 1 }
            return try body()
        }
    }

    /// ``flush()``, unless a callback of a change still under way holds the lock.
    func flushOutermost() {
        if depth == 1 { flush() }
    }

    /// Adds a hub (before the server starts); false if the name is taken or it started.
    func add(_ hub: CollectionHub) -> Bool {
        locked {
            guard group == nil, !hubs.contains(where: { $0.name == hub.name }) else { return false }
            hubs.append(hub)
            return true
        }
    }

    /// Marks a collection as keeping its own data (before the server starts).
    func keepAppData(of name: String) { locked { _ = appManaged.insert(name) } }

    /// Whether the store keeps the collection called `name`.
    func isStored(_ name: String) -> Bool { locked { store != nil && !appManaged.contains(name) } }

    /// Names of the collections the store would keep (their contents, or for those
    /// whose data the app keeps, their history).
    var storedNames: [String] { locked { hubs.map(\.name) } }

    /// Takes up `store`: each stored collection is restored from it (its epoch,
    /// sequence, contents, recent batches and op ids), or kept in it as new; from
    /// now on each batch is staged to it and committed at the end of the turn,
    /// before anything about it is sent.
    ///
    /// A collection whose data the app keeps (a typed data source) has its history
    /// kept the same way, so that open pages resume after a restart: what the store
    /// holds becomes its state (epoch, sequence, what viewers were shown), and the
    /// app's contents, if they differ, come after it as one batch. (Not with a store
    /// several servers share: each node's app holds its own data.)
    func attach(_ store: any CollectionStore) throws(StoreError) {
        let sharedStore = store as? any SharedCollectionStore
        try locked { () throws(StoreError) in
            for hub in hubs where sharedStore == nil || !appManaged.contains(hub.name) {
                if appManaged.contains(hub.name) {
                    try adoptHistory(of: hub, from: store)
                    continue
                }
                var stored = try store.load(hub.name)
                if stored == nil {
                    try store.create(hub.storedState)
                    // Another node may have made it first: what the store holds wins.
                    if sharedStore != nil, let first = try store.load(hub.name), first.epoch != hub.epoch { stored = first }
                }
                if let stored {
                    hub.restore(stored)
                    logger.info("\(hub.name): restored at batch \(stored.seq), \(stored.model.snapshot.numberOfItems) items")
                }
                keep(StoreJournal(engine: self), for: hub)
            }
            self.store = store
            shared = sharedStore
        }
        if let sharedStore {
            sharedStore.observeCommits { [weak self] name in self?.catchUp(name) }
            startPresence(sharedStore)
        }
    }

    /// The history the store holds of `hub`, whose contents the app gave (before the
    /// server started): its epoch and sequence are kept, and the app's contents follow
    /// as one batch when they differ from what viewers were last shown.
    private func adoptHistory(of hub: CollectionHub, from store: any CollectionStore) throws(StoreError) {
        let app = hub.model
        keep(StoreJournal(engine: self, attaching: store), for: hub)
        guard let stored = try store.load(hub.name) else {
            try store.create(hub.storedState)
            return
        }
        hub.restore(stored)
        guard app != stored.model else {
            logger.info("\(hub.name): resumed at batch \(stored.seq), the app's contents as they were")
            return
        }
        // Cells whose content changed are configured again (the same item, kept or moved).
        let changed = app.snapshot.itemIdentifiers.filter { stored.model.itemContent[$0] != nil && stored.model.itemContent[$0] != app.itemContent[$0] }
        do {
            _ = try hub.apply(app, reconfiguring: changed)
        } catch {
            throw StoreError(.failed, "the app's contents of '\(hub.name)' could not follow its kept history: \(error.message)")
        }
        flush()
        logger.info("\(hub.name): resumed at batch \(stored.seq), the app's contents as batch \(hub.sequence)")
    }

    /// Makes `journal` the hub's storage, kept here (the hub holds it weakly).
    private func keep(_ journal: StoreJournal, for hub: CollectionHub) {
        journals[hub.name] = journal
        hub.journal = journal
    }

    /// The store attached, if any.
    var currentStore: (any CollectionStore)? { locked { store } }

    /// Lets go of the store (the server stopped).
    func detachStore() {
        locked {
            flush()
            for hub in hubs {
                hub.journal = nil
                hub.nodes.relaysPresence = false
            }
            journals = [:]
            presenceTimer?.cancel()
            presenceTimer = nil
            store = nil
            shared = nil
            writer.stop()
        }
    }

    /// Stages a batch for the turn's transaction, or refuses it when the store cannot take it now.
    func stage(_ batch: CommittedBatch, to attaching: (any CollectionStore)? = nil) throws(ProtocolError) {
        guard let store = store ?? attaching else { return }
        if let problem = store.writeProblem { throw ProtocolError(.storageUnavailable, problem.message) }
        if shared != nil { return try stageShared(batch) }
        if let first = path.stage(batch) {
            let pending = PendingAppend(first)
            writing = pending
            writer.run(pending, on: store)
        }
    }

    /// Ends the turn: does what the commit path asks (waits for the append under way,
    /// appends the rest of the turn's batches in one transaction, or ends a shared
    /// edit), then sends what waited for them. When the store fails here (a disk that
    /// filled in the middle of the commit), the collections concerned go back to what
    /// the store holds, and their viewers are closed (1011) to reconnect and resume
    /// from there: nothing they were told is lost, and the edits not kept were never
    /// acknowledged.
    func flush() {
        var step = path.endTurn()
        while true {
            switch step {
            case .waitForAppend:
                let error = writing?.wait()
                writing = nil
                step = path.appendEnded(error)
            case let .append(batches):
                step = path.appendEnded(Self.append(batches, to: store))
            case .commitEdit:
                step = path.editEnded(Self.commit(shared))
            case .cancelEdit:
                shared?.cancelEdit()
                step = path.editEnded(nil)
            case let .deliver(out, lost):
                var dropped: Set<UInt64> = []
                if let lost, store != nil {
                    let names = lost.collections
                    logger.error("could not keep \(lost.batches.count) batches of \(names.sorted().joined(separator: ", ")): \(lost.error); their viewers reconnect")
                    for hub in hubs where names.contains(hub.name) {
                        dropped.formUnion(hub.viewerKeys)
                        try? restoreFromStore(hub, reason: "a change could not be kept; reconnect")
                    }
                }
                guard let transport else { return }
                Self.send(dropped.isEmpty ? out : out.filter { !dropped.contains($0.viewer) }, through: transport)
                return
            }
        }
    }

    private static func append(_ batches: [CommittedBatch], to store: (any CollectionStore)?) -> StoreError? {
        do {
            try store?.append(batches)
            return nil
        } catch {
            return error
        }
    }

    private static func commit(_ shared: (any SharedCollectionStore)?) -> StoreError? {
        do {
            try shared?.commitEdit()
            return nil
        } catch {
            return error
        }
    }

    /// Sends `out` in order, each connection's state fetched while the message before
    /// it is written (a batch goes to every viewer: each connection's is cold by then).
    static func send(_ out: [Outgoing], through transport: any EngineOutput) {
        for i in out.indices {
            if i + 1 < out.count { transport.prefetch(ConnectionID(rawValue: out[i + 1].viewer)) }
            transport.deliver(out[i].encodedMessage, to: ConnectionID(rawValue: out[i].viewer))
        }
    }

    /// A graceful stop begins: no message is read any more, and what the turn made is committed and sent.
    func drain() {
        locked {
            draining = true
            flush()
        }
    }

    /// Groups the hubs; no hub is added after this.
    func seal(viewerPrefix: String = "") {
        locked {
            if group == nil, !hubs.isEmpty { group = CollectionHubGroup(hubs, viewerPrefix: viewerPrefix) }
        }
    }

    var names: [String] { locked { hubs.map(\.name) } }

    /// Runs `body` on the hub called `name` under the lock, and sends what it returns.
    /// `changes`: the body may change the collection (with a shared store, it is
    /// locked and brought up to date first).
    func withHub<T>(_ name: String, changes: Bool = true, _ body: (CollectionHub) throws(ProtocolError) -> (T, [Outgoing])) throws(ProtocolError) -> T {
        try locked { () throws(ProtocolError) -> T in
            guard let hub = hubs.first(where: { $0.name == name }) else {
                throw ProtocolError(.unknownCollection, "no collection named '\(name)'")
            }
            do throws(ProtocolError) {
                if changes, shared != nil, depth == 1 { try beginEdit([name]) }
                let (value, out) = try body(hub)
                send(out)
                flushOutermost()
                return value
            } catch {
                // A refused change still ends the edit it opened (its locks go).
                flushOutermost()
                throw error
            }
        }
    }

    /// Sends now, or after the staged batches are committed (keeping the order).
    func send(_ out: [Outgoing]) {
        if shared != nil { relayPresence() }
        let now = path.send(out)
        guard !now.isEmpty, let transport else { return }
        Self.send(now, through: transport)
    }

    /// A transport event: to the group, and its messages back out.
    func handle(_ event: WebSocketEvent) {
        locked {
            guard let group, let server = transport else { return }
            let outgoing: [Outgoing]
            switch event {
            case let .opened(id, _, path, credential):
                if path == server.echoPath {
                    echo.insert(id)
                } else {
                    group.connect(id.rawValue, at: Self.now, identity: credential as? Identity)
                    unconfirmed.insert(id)
                }
                logger.debug("open \(id) on \(path)")
                return
            case let .message(id, bytes, binary):
                if draining { return }
                if echo.contains(id) {
                    server.echo(bytes, to: id, binary: binary)
                    return
                }
                outgoing = binary ? group.receiveBinary(from: id.rawValue) : receive(bytes, from: id, in: group)
                if !unconfirmed.isEmpty, unconfirmed.contains(id), group.hasSaidHello(id.rawValue) {
                    unconfirmed.remove(id)
                    server.confirm(id)
                }
            case let .closed(id):
                unconfirmed.remove(id)
                outgoing = echo.remove(id) != nil ? [] : group.disconnect(id.rawValue)
                logger.debug("closed \(id)")
            case .turnEnded:
                send(group.endTurn())
                flushOutermost()
                return
            }
            send(outgoing)
            // A shared store's locks are held for one message, not a turn.
            if !groupCommit || shared != nil { flushOutermost() }
        }
    }
}

/// A hub's storage (``CollectionHubJournal``): the engine's store, and with a store
/// several servers share, the edit that locks the collections before a change.
final class StoreJournal: CollectionHubJournal {
    unowned let engine: Engine
    /// The store of a collection whose data the app keeps, while it is attached (its history only).
    let attaching: (any CollectionStore)?

    init(engine: Engine, attaching: (any CollectionStore)? = nil) {
        self.engine = engine
        self.attaching = attaching
    }

    func hub(_ hub: CollectionHub, stage batch: CommittedBatch) throws(ProtocolError) {
        try engine.stage(batch, to: attaching)
    }

}

/// Where the engine's messages go (a connection's id names the receiver): the
/// transport, or a test's connections in this process (CollectionTesting).
package protocol EngineOutput: AnyObject, Sendable {
    /// Sends a message to a connection, after those sent to it before.
    func deliver(_ message: SplicedBytes, to connection: ConnectionID)
    /// Sends bytes back as they came (the echo path's connections).
    func echo(_ bytes: [UInt8], to connection: ConnectionID, binary: Bool)
    /// Fetches a connection's state ahead of sending to it (a hint).
    func prefetch(_ connection: ConnectionID)
    /// The connection said hello: it is a viewer now.
    func confirm(_ connection: ConnectionID)
    /// Closes a connection with `code`.
    func close(_ connection: ConnectionID, code: CloseCode, reason: String)
    /// The path whose connections get their messages back (nil: none).
    var echoPath: String? { get }
}

extension WebSocketServer: EngineOutput {
    package func deliver(_ message: SplicedBytes, to connection: ConnectionID) { send(message, to: connection) }
    package func echo(_ bytes: [UInt8], to connection: ConnectionID, binary: Bool) { send(bytes, to: connection, binary: binary) }
    package var echoPath: String? { configuration.extraWebSocketPath }
}
