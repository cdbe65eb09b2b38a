import CollectionStorage
import CollectionSync
import Logging
import WebSocketTransport

extension CollectionServer {
    /// How a ``CollectionServer`` listens and what it serves.
    public struct Configuration: Sendable {
        /// Interface address to bind ("0.0.0.0" for every IPv4 interface).
        public var host: String
        /// Port; 0 lets the kernel pick (``CollectionServer/start()`` returns it).
        public var port: Int
        /// PEM certificate; with ``tlsKey``, the server speaks https and wss.
        public var tlsCertificate: String?
        /// PEM private key for ``tlsCertificate``.
        public var tlsKey: String?
        /// The app's own pages and templates, served at "/" (nil: only the client).
        public var publicDirectory: String?
        /// The client's files, served at ``CollectionClient/mountPath``; nil uses the
        /// copy shipped with the library.
        public var clientDirectory: String?
        /// Least severe log level written (to standard error).
        public var logLevel: Logger.Level
        /// Limits of each collection added later (each may change its own).
        public var limits: HubLimits
        /// WebSocket connections allowed at once; one more is closed with 1008.
        public var maxConnections: Int
        /// WebSocket connections allowed from one address; one more is closed with 1008.
        public var maxConnectionsPerAddress: Int = 256
        /// Bytes queued for one connection before it is closed as a stalled reader.
        public var maxQueuedBytes: Int
        /// Bytes queued for every connection together: past it the largest backlogs
        /// are cut first (1008), whatever each one's own bound, so that readers that
        /// stop reading cannot take the server's memory.
        public var maxQueuedBytesTotal: Int = 256 * 1024 * 1024
        /// Bytes queued for the connections of one address together (cut the same way).
        public var maxQueuedBytesPerAddress: Int = 64 * 1024 * 1024
        /// Connections that have not said `hello` yet, in all: past it the oldest of
        /// them is closed (1008) to make room. Viewers that said hello are never
        /// refused because of them.
        public var maxPendingConnections: Int = 128
        /// Connections from one address that have not said `hello` yet; one more is
        /// refused with 1008.
        public var maxPendingPerAddress: Int = 16
        /// Seconds a connection may be idle before it is pinged (0: no heartbeat).
        public var pingInterval: Int
        /// Seconds a pinged connection has to answer before it is closed.
        public var pingTimeout: Int
        /// Seconds a connection may stay open without saying `hello`; then it is
        /// closed with 1008 (0: never). While half of ``maxPendingConnections`` or
        /// more are taken, a fifth of it (2 s at least).
        public var helloTimeout: Double = 10
        /// Origins whose pages may open a WebSocket besides the server's own, as
        /// `scheme://host[:port]` ("https://app.example.com"). A handshake from any
        /// other origin is refused with 403; one with no Origin (not a browser) passes.
        public var allowedOrigins: [String] = []
        /// A path that echoes every message back (for WebSocket conformance tests); nil: none.
        public var echoPath: String?
        /// Where stored collections are kept (see ``Persistence``): SQLite in
        /// `./data` unless told otherwise.
        public var storage: Storage = .sqlite(directory: "data")
        /// Whether the edits of one turn of the service loop share one transaction
        /// (one sync to disk) rather than one each.
        public var groupCommit = true
        /// Decides who is behind each WebSocket handshake (its headers, cookies,
        /// query and address); nil uses the built-in signed ``tokens``.
        public var authenticate: (@Sendable (Handshake) -> Authentication)?
        /// The secret signed tokens are checked with (nil: tokens are refused, and
        /// everyone is anonymous).
        public var tokens: TokenSigner?
        /// Whether anonymous viewers are refused (401 before the upgrade).
        public var requireToken = false
        /// The cookie the built-in authentication reads a token from.
        public var tokenCookie = "collection_token"
        /// Largest body a route's `POST` may send (``CollectionServer/addRoute(_:_:handler:)``; 413 above it).
        public var maxRequestBodyBytes = 64 * 1024
        /// Seconds a route's handler may take before the request is answered 504.
        public var routeTimeout: Double = 30
        /// Seconds a graceful stop (SIGTERM, ``CollectionServer/stop()``) waits for
        /// viewers to take their 1001 close.
        public var shutdownTimeout: Double = 3

        /// A configuration listening on `host:port`, serving `publicDirectory`.
        ///
        /// - Parameters:
        ///   - host: The address to listen on (`0.0.0.0`: every interface).
        ///   - port: The port (0: one the kernel picks; ``CollectionServer/url`` says which).
        ///   - tlsCertificate: A PEM certificate chain: HTTPS and WSS (with `tlsKey`).
        ///   - tlsKey: Its PEM private key.
        ///   - publicDirectory: The folder of the app's pages (nil: the client alone).
        ///   - logLevel: What the server logs.
        public init(host: String = "127.0.0.1", port: Int = 8080, tlsCertificate: String? = nil, tlsKey: String? = nil,
                    publicDirectory: String? = nil, logLevel: Logger.Level = .info) {
            self.host = host
            self.port = port
            self.tlsCertificate = tlsCertificate
            self.tlsKey = tlsKey
            self.publicDirectory = publicDirectory
            self.logLevel = logLevel
            limits = HubLimits()
            maxConnections = 1_024
            maxQueuedBytes = 8 * 1024 * 1024
            pingInterval = 30
            pingTimeout = 60
        }

        /// Where collections are kept.
        public enum Storage: Sendable {
            /// An SQLite database (`collections.sqlite`, WAL mode) in `directory`,
            /// made when missing; ``SQLiteCollectionStore/Options`` tune it.
            case sqlite(directory: String, options: SQLiteCollectionStore.Options = .init())
            /// Nothing is kept: every start begins anew.
            case inMemory
            /// A store several servers (nodes) share, opened when the server starts:
            /// `open` gets this node's name (`nodeID`, or a random one) and the
            /// server's logger. PostgreSQL's is `.postgres(url:nodeID:options:)`,
            /// from the `CollectionServerPostgres` product (its own, so that an app
            /// that keeps its collections in SQLite builds none of PostgreSQL's packages).
            case shared(nodeID: String? = nil, open: @Sendable (_ nodeID: String, _ logger: Logger) throws(StoreError) -> any CollectionStore)
            /// A store of the app's (one shared by several servers, say).
            case custom(any CollectionStore)
        }

        /// True when both TLS files are set.
        public var usesTLS: Bool { tlsCertificate != nil && tlsKey != nil }
    }
}
