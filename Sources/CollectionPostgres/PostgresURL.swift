import CollectionSync
import Foundation
import PostgresNIO

/// Where a PostgreSQL server is, from a URL as libpq writes them:
/// `postgres://user:password@host:port/database`, or a Unix socket's folder as the
/// `host` query item (`postgres:///collections?host=/run/postgresql&user=app`).
public struct PostgresURL: Sendable, Equatable {
    /// The user to log in as (the URL's, or `user=`, or the process's `USER`).
    public var user: String
    /// The password, if any.
    public var password: String?
    /// The database (default: the user's name, as libpq).
    public var database: String
    /// A host name or address for TCP; nil with ``socketDirectory``.
    public var host: String?
    /// The folder holding the server's Unix socket.
    public var socketDirectory: String?
    /// The port (also the number in the socket's name).
    public var port: Int

    /// Reads `text`, refusing what it cannot honour with a message that says why.
    public init(_ text: String) throws(StoreError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw StoreError(.failed, "'\(text.prefix(200))' is not a PostgreSQL URL (postgres://user:password@host:port/database)")
        }
        var items: [String: String] = [:]
        for item in components.queryItems ?? [] { items[item.name] = item.value ?? "" }
        for name in items.keys where !["host", "user", "password", "port", "sslmode", "dbname"].contains(name) {
            throw StoreError(.failed, "the PostgreSQL URL's '\(name)' is not understood (known: host, user, password, port, dbname, sslmode)")
        }
        if let mode = items["sslmode"], !["disable", "allow", "prefer"].contains(mode) {
            throw StoreError(.failed, "sslmode=\(mode) is not supported: connect over a Unix socket or a private network (sslmode=disable)")
        }
        let environment = ProcessInfo.processInfo.environment
        user = items["user"] ?? components.user.flatMap { $0.isEmpty ? nil : $0 }.map { $0.removingPercentEncoding ?? $0 } ?? environment["USER"] ?? "postgres"
        password = items["password"] ?? components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = items["dbname"] ?? (path.isEmpty ? user : path.removingPercentEncoding ?? path)
        let portText = items["port"] ?? components.port.map(String.init) ?? "5432"
        guard let port = Int(portText), (1...65_535).contains(port) else { throw StoreError(.failed, "the PostgreSQL URL's port '\(portText)' is not a port") }
        self.port = port
        let hostItem = items["host"] ?? components.host.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding }
        if let hostItem, hostItem.hasPrefix("/") {
            socketDirectory = hostItem
            host = nil
        } else if let hostItem {
            host = hostItem
            socketDirectory = nil
        } else {
            host = nil
            socketDirectory = "/var/run/postgresql"
        }
    }

    /// postgres-nio's configuration for it.
    var configuration: PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        } else {
            configuration = .init(host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: .disable)
        }
        configuration.options.connectTimeout = .seconds(3)
        return configuration
    }

    /// Where it is, for logs (no password).
    public var description: String {
        "\(user)@\(socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } ?? "\(host ?? "localhost"):\(port)")/\(database)"
    }
}
