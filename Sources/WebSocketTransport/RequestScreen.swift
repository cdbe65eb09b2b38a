import CLibWebSockets
import CWebSocketShim
import Foundation

/// What the server answers an HTTP request or an upgrade with, before any file is
/// looked at. Pure: tested with no sockets.
public struct RequestScreen: Sendable {
    /// The refusal: a status, extra header lines and a plain-text reason.
    public struct Refusal: Equatable, Sendable {
        public var status: UInt32
        public var headers: String
        public var reason: String
    }

    /// The WebSocket paths, the subprotocol and the size limits.
    public var configuration: WebSocketServerConfiguration

    /// Screens with `configuration`'s paths and limits.
    public init(configuration: WebSocketServerConfiguration) { self.configuration = configuration }

    /// Sizes first (414 for the whole request target, path and query; 431), then
    /// `Host` (400 for HTTP/1.1 without one), then the method: files are read with
    /// GET or HEAD only (405, saying so in `Allow`).
    public func screen(method: Int, uriBytes: Int, headerBytes: Int, hasHost: Bool = true, http10: Bool = false) -> Refusal? {
        screenHead(uriBytes: uriBytes, headerBytes: headerBytes, hasHost: hasHost, http10: http10) ?? screenMethod(method)
    }

    /// Sizes (414, 431) and `Host` (400): what every request is screened for, a
    /// route's as a file's.
    public func screenHead(uriBytes: Int, headerBytes: Int, hasHost: Bool = true, http10: Bool = false) -> Refusal? {
        screenSizes(uriBytes: uriBytes, headerBytes: headerBytes) ?? screenHost(hasHost, http10: http10)
    }

    /// Files are read with GET or HEAD only (405).
    public func screenMethod(_ method: Int) -> Refusal? {
        // lws's method indices: GET 0, HEAD 7.
        guard method == 0 || method == 7 else {
            return Refusal(status: 405, headers: "allow: GET, HEAD\r\n", reason: "static files are read with GET or HEAD")
        }
        return nil
    }

    /// An upgrade: sizes, then the page's origin (403), then the path (404), then the
    /// subprotocols offered (400). `offered` is the Sec-WebSocket-Protocol header,
    /// `origin` the Origin header and `host` the Host header, nil when absent; `port`
    /// is the port listened on.
    public func screenUpgrade(path: String, uriBytes: Int, headerBytes: Int, offered: String?,
                              origin: String? = nil, host: String? = nil, port: Int = 0, http10: Bool = false) -> Refusal? {
        if let refusal = screenSizes(uriBytes: uriBytes, headerBytes: headerBytes) { return refusal }
        if let refusal = screenHost(host != nil, http10: http10) { return refusal }
        guard configuration.origins.allows(origin: origin, boundHost: configuration.host, port: port, tls: configuration.usesTLS, hostHeader: host) else {
            return Refusal(status: 403, headers: "", reason: "pages from origin '\(origin?.prefix(200) ?? "")' may not open a WebSocket here; the server allows its own origin and those given with --allow-origin")
        }
        guard path == configuration.webSocketPath || path == configuration.extraWebSocketPath else {
            return Refusal(status: 404, headers: "", reason: "no WebSocket endpoint at \(path.prefix(200)); connect to \(configuration.webSocketPath)")
        }
        if let offered, path == configuration.webSocketPath {
            let names = offered.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard names.contains(configuration.subprotocol) else {
                return Refusal(status: 400, headers: "", reason: "unsupported subprotocol '\(offered.prefix(200))'; offer \(configuration.subprotocol)")
            }
        }
        return nil
    }

    /// HTTP/1.1 requires a `Host` header (RFC 9112, 3.2): a request without one is refused.
    private func screenHost(_ hasHost: Bool, http10: Bool) -> Refusal? {
        hasHost || http10 ? nil : Refusal(status: 400, headers: "", reason: "an HTTP/1.1 request needs a Host header")
    }

    private func screenSizes(uriBytes: Int, headerBytes: Int) -> Refusal? {
        if uriBytes > configuration.maxURIBytes {
            return Refusal(status: 414, headers: "", reason: "the URI is \(uriBytes) bytes; the limit is \(configuration.maxURIBytes)")
        }
        if headerBytes > configuration.maxHeaderBytes {
            return Refusal(status: 431, headers: "", reason: "the headers are \(headerBytes) bytes; the limit is \(configuration.maxHeaderBytes)")
        }
        return nil
    }

    /// The page's Content-Security-Policy: its scripts, styles and sockets come from
    /// its own origin only (`host` is the request's Host header, when it is a plain
    /// host name or address with an optional port).
    public static func contentSecurityPolicy(host: String?, tls: Bool) -> String {
        var connect = "'self'"
        if let host, !host.isEmpty, host.utf8.count <= 255,
           host.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || ".-:[]".unicodeScalars.contains($0) }) {
            connect += tls ? " wss://\(host)" : " ws://\(host)"
        }
        return "default-src 'none'; img-src 'self' data:; script-src 'self'; style-src 'self'; font-src 'self'; "
            + "connect-src \(connect); frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    }
}
