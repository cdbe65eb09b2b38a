import Foundation

/// What a WebSocket handshake said, for deciding who may connect: its path and
/// query, a few of its headers and the peer's address.
public struct Handshake: Sendable, Equatable {
    /// The request path (without the query).
    public var path: String
    /// The query, as `name=value` pairs joined by `&` (values already URL-decoded).
    public var query: String
    /// Headers by lower-case name: `cookie`, `authorization`, `origin`, `host`,
    /// `user-agent`, `x-forwarded-for` (those present).
    public var headers: [String: String]
    /// The peer's IP address.
    public var remoteAddress: String

    /// A handshake.
    /// - Parameters:
    ///   - path: The WebSocket's path.
    ///   - query: Its query string, without `?`.
    ///   - headers: Headers by lower-case name.
    ///   - remoteAddress: The peer's IP address.
    public init(path: String, query: String = "", headers: [String: String] = [:], remoteAddress: String = "") {
        self.path = path
        self.query = query
        self.headers = headers
        self.remoteAddress = remoteAddress
    }

    /// The query's parameters (the first value of each name).
    public var queryItems: [String: String] {
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard let name = parts.first.map(String.init), items[name] == nil else { continue }
            items[name] = parts.count > 1 ? String(parts[1]) : ""
        }
        return items
    }

    /// The `Cookie` header's cookies (the first value of each name).
    public var cookies: [String: String] {
        var cookies: [String: String] = [:]
        for pair in (headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty, cookies[name] == nil else { continue }
            cookies[name] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        }
        return cookies
    }
}

/// Whether a handshake may become a connection.
public enum Admission: Sendable {
    /// Yes; `credential` (an identity, say) comes with the connection's `opened` event.
    case accept(credential: (any Sendable)?)
    /// No: answered with this HTTP status (401, 403…) and reason, before the upgrade.
    case refuse(status: Int, reason: String)
}
