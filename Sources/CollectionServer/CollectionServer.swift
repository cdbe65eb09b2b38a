import CollectionClient
import CollectionProtocol
import CollectionStorage
import CollectionSync
import Dispatch
import Foundation
import Logging
import WebSocketTransport
import Locking

/// A server of live collections: browsers connect over WebSockets, each watching
/// one collection through the client served at ``CollectionClient/mountPath``.
///
/// ```swift
/// let server = CollectionServer(configuration: .init(port: 8080, publicDirectory: "Public"))
/// let board = server.addCollection(named: "board")
/// // … give `board` a data source, a layout, a delegate …
/// try await server.run { print("listening on \($0)") }   // returns on SIGINT or SIGTERM
/// ```
public final class CollectionServer: Sendable {
    /// What it was made with.
    public let configuration: Configuration
    let engine: Engine
    private let transport: WebSocketServer
    /// The app's HTTP routes (``addRoute(_:_:handler:)``).
    let router = HTTPRouter()
    private let lifecycle = Locked(Lifecycle())
    /// This server's name among several sharing a PostgreSQL database (nil with one store of its own).
    public let nodeID: String?

    private struct Lifecycle {
        var started = false
        var stopped = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// A server with `configuration`; nothing listens until ``start()`` or ``run()``.
    ///
    /// - Parameter configuration: Where it listens, what it serves, how it stores and who it admits.
    public init(configuration: Configuration) {
        self.configuration = configuration
        let level = configuration.logLevel
        if case let .shared(id, _) = configuration.storage {
            nodeID = id ?? String(UUID().uuidString.prefix(8)).lowercased()
        } else {
            nodeID = nil
        }
        var logger = Logger(label: "collection-server") { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        // Every line says which node wrote it.
        if let nodeID { logger[metadataKey: "node"] = "\(nodeID)" }
        engine = Engine(logger: logger)
        var t = WebSocketServerConfiguration()
        t.host = configuration.host
        t.port = configuration.port
        t.publicDirectory = configuration.publicDirectory.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        if let client = configuration.clientDirectory ?? CollectionClient.directory { t.mounts[CollectionClient.mountPath] = client }
        t.tlsCertificate = configuration.tlsCertificate
        t.tlsKey = configuration.tlsKey
        t.subprotocol = subprotocolName
        t.maxMessageSize = maxClientMessageBytes
        t.maxConnections = configuration.maxConnections
        t.maxConnectionsPerAddress = configuration.maxConnectionsPerAddress
        t.maxQueuedBytes = configuration.maxQueuedBytes
        t.maxQueuedBytesTotal = configuration.maxQueuedBytesTotal
        t.maxQueuedBytesPerAddress = configuration.maxQueuedBytesPerAddress
        t.confirmsConnections = true   // once a viewer says hello (Engine)
        t.maxPendingConnections = configuration.maxPendingConnections
        t.maxPendingPerAddress = configuration.maxPendingPerAddress
        t.pendingTimeout = configuration.helloTimeout
        t.pendingTimeoutUnderPressure = max(2, configuration.helloTimeout / 5)
        t.pingInterval = configuration.pingInterval
        t.pingTimeout = configuration.pingTimeout
        t.extraWebSocketPath = configuration.echoPath
        t.origins = OriginPolicy(allowing: configuration.allowedOrigins)
        let admission = configuration
        t.admit = { admission.admission($0) }
        let engine = self.engine
        let node = nodeID
        t.health = { engine.health.report(node: node) }
        t.routes = router
        t.maxRequestBodyBytes = configuration.maxRequestBodyBytes
        t.routeTimeout = configuration.routeTimeout
        transport = WebSocketServer(configuration: t, logger: logger) { engine.handle($0) }
        engine.attach(transport)
    }

    /// Adds a collection called `name` (what pages name in `<collection-view
    /// collection="…">`). The first added is the default for a page that names none.
    /// Add every collection before ``start()``; a name used twice stops the program.
    ///
    /// With `.stored` (the default), the server's store keeps its contents and
    /// history: after a restart it has the same contents, sequence and epoch, and
    /// viewers resume. What ``LiveCollection/load(_:)`` gives is its first
    /// contents, used when the store holds none. A collection whose data source
    /// holds typed values (``LiveDiffableDataSource``, a classic data source)
    /// keeps its data in the app, as `.appManaged` does.
    ///
    /// - Parameters:
    ///   - name: The collection's name, unique on this server.
    ///   - persistence: Whether the server's store keeps it (`.stored`) or the app does (`.appManaged`).
    /// - Returns: The collection, to give a data source, a delegate and contents.
    public func addCollection(named name: String, persistence: Persistence = .stored) -> LiveCollection {
        let limits = configuration.limits
        let hub = CollectionHub(model: CollectionModel(), factory: RefusingItemFactory(), policy: DefaultLayoutPolicy(), limits: limits, name: name)
        hub.allowedEdits = [.move]
        hub.hubDelegate = AppBridge()
        let added = engine.add(hub)
        precondition(added, "collection '\(name)' was added twice, or after the server started")
        if persistence == .appManaged { engine.keepAppData(of: name) }
        return LiveCollection(name: name, engine: engine)
    }

    /// Whether `origin` is one ``Configuration/allowedOrigins`` can hold: `scheme://host[:port]`.
    ///
    /// - Parameter origin: A page's origin, as a browser sends it in `Origin`.
    /// - Returns: Whether it is `scheme://host[:port]` and nothing more.
    public static func isValidOrigin(_ origin: String) -> Bool { OriginPolicy.normalize(origin) != nil }

    /// The collections' names, in the order added.
    public var collectionNames: [String] { engine.names }

    /// Starts listening (and serving) on a thread of its own.
    ///
    /// - Returns: The port it listens on (the kernel's pick for port 0).
    /// - Throws: When it cannot: the port is taken, the certificate cannot be read, the
    ///   store cannot be opened.
    @discardableResult
    public func start() throws -> Int {
        try prepare()
        let store = engine.storedNames.isEmpty ? nil : engine.currentStore
        let port = try transport.start()
        engine.health.set(store: store, ready: true)
        markStarted()
        engine.logger.info("listening on \(configuration.usesTLS ? "https" : "http")://\(configuration.host):\(port)/ (waiting on \(transport.eventLoop?.rawValue ?? "nothing"))")
        if transport.eventLoop != .epoll {
            engine.logger.warning("lws's libev plugin (package libwebsockets-evlib-ev) did not load: each turn of the service loop polls every connection")
        }
        return port
    }

    /// What starting does before serving: a default collection if none was added,
    /// the collections grouped, the store opened and taken up.
    func prepare() throws {
        if collectionNames.isEmpty { _ = addCollection(named: "main") }
        // Viewer ids stay unique across the nodes: `a-v3`.
        engine.seal(viewerPrefix: nodeID.map { "\($0)-" } ?? "")
        engine.groupCommit = configuration.groupCommit
        if !engine.storedNames.isEmpty, let store = try openStore() {
            try engine.attach(store)
        }
    }

    /// Started: ``run()`` serves on.
    func markStarted() { lifecycle.withLock { $0.started = true } }

    /// The configured store, opened (nil: in memory).
    private func openStore() throws(StoreError) -> (any CollectionStore)? {
        switch configuration.storage {
        case .inMemory:
            return nil
        case .custom(let store):
            return store
        case let .shared(_, open):
            return try open(nodeID ?? "node", engine.logger)
        case let .sqlite(directory, options):
            let store = try SQLiteCollectionStore(directory: directory, options: options)
            engine.logger.info("keeping collections in \(store.path)\(store.isReadOnly ? " (read-only: edits are refused)" : "")")
            return store
        }
    }

    /// The port listened on (0 before ``start()``).
    public var port: Int { transport.port }

    /// The address pages are served at, once started: `http://HOST:PORT/`.
    public var url: String { "\(configuration.usesTLS ? "https" : "http")://\(configuration.host):\(port)/" }

    /// Serves until SIGINT or SIGTERM, or ``stop()``: starts (unless started), then
    /// calls `whenListening` with ``url`` (print it, say). The signals are caught
    /// before the server listens, so none sent once the address is known is lost.
    ///
    /// - Parameter whenListening: Called once with ``url`` when the server listens.
    /// - Throws: What ``start()`` throws: the port is taken, the certificate cannot be read, the store cannot be opened.
    public func run(whenListening: (@Sendable (String) -> Void)? = nil) async throws {
        let sources = [SIGINT, SIGTERM].map { sig -> DispatchSourceSignal in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [self] in stop() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        let (started, stopped) = lifecycle.withLock { ($0.started, $0.stopped) }
        if stopped { return }
        // Opening the store may wait on the disk or the database: not on the pool.
        if !started { _ = try await offThePool { try self.start() } }
        whenListening?(url)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let resumeNow = lifecycle.withLock { life -> Bool in
                if life.stopped { return true }
                life.waiters.append(done)
                return false
            }
            if resumeNow { done.resume() }
        }
    }

    /// Closes every connection and stops listening; ``run()`` returns. Idempotent.
    public func stop() {
        let waiters = lifecycle.withLock { life -> [CheckedContinuation<Void, Never>] in
            life.stopped = true
            defer { life.waiters = [] }
            return life.waiters
        }
        // Graceful: no message is read any more, the turn's batches are committed
        // and sent, every viewer gets them and then 1001, and the store is let go.
        // A store call under way (the engine's lock held) gives up within a second:
        // a database that does not answer cannot hold the stop past its 5 s.
        engine.health.store?.abandonWaits(within: 1)
        engine.health.set(store: nil, ready: false)
        engine.drain()
        transport.shutdown(code: .goingAway, reason: "server is shutting down", timeout: configuration.shutdownTimeout)
        engine.detachStore()
        waiters.forEach { $0.resume() }
    }
}

/// Who keeps a collection's contents.
public enum Persistence: Sendable {
    /// The server's store (``CollectionServer/Configuration/storage``): restored
    /// after a restart, with its history, so that viewers resume.
    case stored
    /// The app (its own database, a data source of typed values) keeps the contents;
    /// the server's store keeps the history (epoch, sequence, what viewers were
    /// last shown, recent batches), so that open pages resume after a restart: the
    /// app gives its contents again before the server starts, and if they differ
    /// from what viewers were shown, they come as one batch after it. (With a store
    /// several servers share, nothing: each node's app holds its own data.)
    case appManaged
}

/// UIKit's default flow layout (50 × 50 items, 10 points apart) until the app gives one.
struct DefaultLayoutPolicy: LayoutPolicy {
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) {}
}

/// The factory of collections whose items come from the app: viewers cannot insert.
struct RefusingItemFactory: ItemFactory {
    func makeItem(serial: Int, section: String) -> (id: String, content: [String: String]) { ("new-\(serial)", [:]) }
}
