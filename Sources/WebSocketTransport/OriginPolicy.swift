import Foundation

/// Which pages may open a WebSocket: the `Origin` a browser sends with the handshake
/// must be the server's own (scheme, host and port) or one allowed by name. A page
/// of another site cannot then use a visitor's browser to reach the server
/// (cross-site WebSocket hijacking). A handshake with no `Origin` is not a
/// browser's (tests, tools) and passes. Pure: tested with no sockets.
public struct OriginPolicy: Sendable, Equatable {
    /// Origins allowed besides the server's own, normalized (``normalize(_:)``).
    public var allowed: Set<String>

    /// A policy allowing the server's own origin and `extra` ones ("https://app.example.com").
    public init(allowing extra: [String] = []) {
        allowed = Set(extra.compactMap(Self.normalize))
    }

    /// `scheme://host[:port]`, lowercased, without a default port (80 for http, 443
    /// for https); nil for anything else (`null`, paths, other schemes).
    public static func normalize(_ origin: String) -> String? {
        let text = origin.trimmingCharacters(in: .whitespaces).lowercased()
        guard let range = text.range(of: "://") else { return nil }
        let scheme = String(text[..<range.lowerBound])
        guard scheme == "http" || scheme == "https" else { return nil }
        var authority = String(text[range.upperBound...])
        if authority.hasSuffix("/") { authority.removeLast() }
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@"), !authority.contains("?"), !authority.contains("#") else { return nil }
        let defaultPort = scheme == "http" ? ":80" : ":443"
        if authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
        return "\(scheme)://\(authority)"
    }

    /// The server's own origins: its scheme, port, and the names it is reached by.
    /// A loopback address answers to 127.0.0.1, localhost and [::1]; a wildcard
    /// address (0.0.0.0, ::) to the name the browser asked for (the `Host` header).
    public static func ownOrigins(boundHost: String, port: Int, tls: Bool, hostHeader: String?) -> Set<String> {
        let scheme = tls ? "https" : "http"
        var names: [String]
        switch boundHost.lowercased() {
        case "127.0.0.1", "localhost", "::1", "[::1]": names = ["127.0.0.1", "localhost", "[::1]"]
        case "0.0.0.0", "::", "[::]", "": names = []
        case let host where host.contains(":") && !host.hasPrefix("["): names = ["[\(host)]"]
        case let host: names = [host]
        }
        var own = Set(names.compactMap { normalize("\(scheme)://\($0):\(port)") })
        if names.isEmpty, let hostHeader, let origin = normalize("\(scheme)://\(hostHeader)") { own.insert(origin) }
        return own
    }

    /// Whether a handshake with this `Origin` header may upgrade.
    public func allows(origin: String?, boundHost: String, port: Int, tls: Bool, hostHeader: String?) -> Bool {
        guard let origin else { return true }
        guard let normalized = Self.normalize(origin) else { return false }
        return allowed.contains(normalized) || Self.ownOrigins(boundHost: boundHost, port: port, tls: tls, hostHeader: hostHeader).contains(normalized)
    }
}
