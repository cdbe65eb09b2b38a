// Collections shared by several servers through PostgreSQL: `import CollectionServerPostgres`
// (the product of the same name) and give `.postgres(url:nodeID:options:)` as the storage.
// A product of its own: an app that keeps its collections in SQLite builds none of
// postgres-nio, SwiftNIO or their TLS.
@_exported import CollectionServer
@_exported import class CollectionPostgres.PostgresCollectionStore
@_exported import struct CollectionPostgres.PostgresURL
import CollectionPostgres

extension CollectionServer.Configuration.Storage {
    /// A PostgreSQL database several servers share (`postgres://user:password@host:port/database`,
    /// or `postgres:///database?host=/socket/folder`; TLS as libpq's `sslmode` says): any
    /// number of servers serve the same collections, in one order. `nodeID` names this
    /// server in its logs and notifications (nil: a random one);
    /// ``PostgresCollectionStore/Options`` tune it (folds, the statement timeout).
    ///
    /// - Parameters:
    ///   - url: The database's URL.
    ///   - nodeID: This server's name among the nodes.
    ///   - options: Folds, timeouts.
    /// - Returns: The storage, for ``CollectionServer/Configuration/storage``.
    public static func postgres(url: String, nodeID: String? = nil, options: PostgresCollectionStore.Options = .init()) -> Self {
        .shared(nodeID: nodeID) { node, logger throws(StoreError) in
            let store = try PostgresCollectionStore(url: url, nodeID: node, options: options, logger: logger)
            logger.info("sharing collections through PostgreSQL at \(store.url.description), as node \(store.nodeID)")
            return store
        }
    }
}
