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

extension ServerCore {
    /// `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`: a wrong upgrade gets an HTTP answer, not a dropped connection.
    func confirmUpgrade(_ wsi: OpaquePointer) -> Int32 {
        let offered = header(wsi, WSI_TOKEN_PROTOCOL, cap: 1024)
        // An empty or blank Origin is an Origin (refused), not a missing one.
        let origin = presentHeader(wsi, WSI_TOKEN_ORIGIN, cap: configuration.headerSpace)
        let path = requestPath(wsi)
        let target = Int(cws_request_target_bytes(wsi))
        let head = requestHeadBytes(wsi)
        requestEnds[wsi] = nil
        // (An upgrade is HTTP/1.1 whatever lws says yet: Host is required.)
        if let refusal = screen.screenUpgrade(path: path, uriBytes: target, headerBytes: max(Int(cws_request_header_bytes(wsi)), head - target),
                                              offered: offered, origin: origin, host: presentHeader(wsi, WSI_TOKEN_HOST, cap: 256),
                                              port: port.load(ordering: .relaxed)) {
            logger.info("refused upgrade: \(refusal.status) \(refusal.reason)")
            _ = cws_http_respond(wsi, refusal.status, refusal.headers, refusal.reason + "\n", 0)
            return -1
        }
        guard let admit = configuration.admit else { return 0 }
        var headers: [String: String] = [:]
        let named: [(String, lws_token_indexes)] = [("cookie", WSI_TOKEN_HTTP_COOKIE), ("authorization", WSI_TOKEN_HTTP_AUTHORIZATION),
                                                    ("origin", WSI_TOKEN_ORIGIN), ("host", WSI_TOKEN_HOST),
                                                    ("user-agent", WSI_TOKEN_HTTP_USER_AGENT), ("x-forwarded-for", WSI_TOKEN_X_FORWARDED_FOR)]
        for (name, token) in named {
            if let value = header(wsi, token, cap: configuration.headerSpace) { headers[name] = value }
        }
        let handshake = Handshake(path: path, query: header(wsi, WSI_TOKEN_HTTP_URI_ARGS, cap: configuration.headerSpace) ?? "",
                                  headers: headers, remoteAddress: peerAddress(wsi))
        switch admit(handshake) {
        case .accept(let credential):
            admitted[wsi] = credential
            return 0
        case let .refuse(status, reason):
            logger.info("refused upgrade: \(status) \(reason)")
            _ = cws_http_respond(wsi, UInt32(clamping: status), "", reason + "\n", 0)
            return -1
        }
    }

    /// Bytes of the request just read, request line and every header: what the
    /// socket received since the connection's last request (TCP_INFO). lws counts
    /// only the headers it knows (``cws_request_header_bytes``), and an unknown
    /// header of 20 KiB was served. Over TLS the first request's count includes
    /// the handshake (about 2 KiB), which ``RequestScreen`` allows for.
    func requestHeadBytes(_ wsi: OpaquePointer) -> Int {
        let received = cws_socket_bytes_received(lws_get_socket_fd(wsi))
        let before = requestEnds[wsi] ?? 0
        requestEnds[wsi] = received
        let bytes = received >= before ? received - before : received
        return configuration.usesTLS ? max(0, Int(bytes) - 4_096) : Int(bytes)
    }

    /// The peer's IP address, as lws reads it.
    func peerAddress(_ wsi: OpaquePointer) -> String {
        var peer = [CChar](repeating: 0, count: 64)
        return lws_get_peer_simple(wsi, &peer, peer.count).map { String(cString: $0) } ?? ""
    }

    /// `LWS_CALLBACK_HTTP`: a static file (with validators, 304 when unchanged), or a status.
    func serveHTTP(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        var uriBytes: Int32 = 0
        let method = cws_request_method(wsi, &uriBytes)
        let target = Int(cws_request_target_bytes(wsi))
        let head = requestHeadBytes(wsi)
        if let refusal = screen.screenHead(uriBytes: target, headerBytes: max(Int(cws_request_header_bytes(wsi)), head - target),
                                           hasHost: cws_header_present(wsi, Int32(WSI_TOKEN_HOST.rawValue)) != 0, http10: cws_request_is_http10(wsi) != 0) {
            logger.debug("\(refusal.status) \(refusal.reason)")
            return cws_http_respond(wsi, refusal.status, refusal.headers, refusal.reason + "\n", 0)
        }
        // lws has already decoded and normalised the URI; StaticFiles checks it again.
        let uri = requestPath(wsi)
        let path = uri.isEmpty ? (input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/") : uri
        // The app's routes come before the files.
        if let router = configuration.routes, let answer = serveRoute(wsi, method: method, path: path, router: router) { return answer }
        if let refusal = screen.screenMethod(Int(method)) {
            logger.debug("\(refusal.status) \(refusal.reason)")
            return cws_http_respond(wsi, refusal.status, refusal.headers, refusal.reason + "\n", 0)
        }
        if let health = configuration.health, path == configuration.healthPath {
            let (status, text) = health()
            return cws_http_respond(wsi, UInt32(clamping: status), "cache-control: no-store\r\n", text, 1)
        }
        // A mounted directory serves its prefix; the public directory serves the rest.
        let answer: StaticFiles.Answer
        if let (prefix, mounted) = mounts.first(where: { path.hasPrefix($0.prefix) }) {
            answer = mounted.resolve("/" + path.dropFirst(prefix.count))
        } else if let files {
            answer = files.resolve(path)
        } else {
            answer = .notFound
        }
        switch answer {
        case let .file(file, contentType, validators):
            // Text goes gzipped to a browser that takes it (its copy has an ETag of its own).
            let compressible = CompressedFiles.isCompressible(contentType)
            let gzip = compressible && CompressedFiles.acceptsGzip(header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING, cap: 512))
            var served = validators
            if gzip { served.etag = CompressedFiles.gzipTag(validators.etag) }
            var headers = "cache-control: no-cache\r\netag: \(served.etag)\r\nlast-modified: \(validators.lastModified)\r\n"
            if compressible { headers += "vary: accept-encoding\r\n" }
            if contentType.hasPrefix("text/html") {
                headers += "content-security-policy: \(RequestScreen.contentSecurityPolicy(host: header(wsi, WSI_TOKEN_HOST, cap: 256), tls: configuration.usesTLS))\r\n"
            }
            if served.unchanged(ifNoneMatch: header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH, cap: 1024),
                                ifModifiedSince: header(wsi, WSI_TOKEN_HTTP_IF_MODIFIED_SINCE, cap: 128)) {
                return cws_http_respond(wsi, 304, headers, "", 1)
            }
            if gzip, let bytes = compressed.gzipped(path: file, etag: validators.etag) {
                let lines = "content-type: \(contentType)\r\ncontent-encoding: gzip\r\n" + headers
                return bytes.withUnsafeBytes { cws_http_answer(wsi, 200, lines, $0.baseAddress, $0.count, method == 7 ? 0 : 1) }
            }
            return cws_serve_file(wsi, file, contentType, headers)
        case .notFound:
            logger.debug("404 \(path)")
            return cws_http_respond(wsi, 404, "", "Not found\n", 0)
        case .forbidden:
            logger.info("refused path \(path)")
            return cws_http_respond(wsi, 403, "", "Forbidden\n", 0)
        }
    }

    /// A request header's value, "" when present but empty, nil when absent (or longer than `cap`).
    func presentHeader(_ wsi: OpaquePointer, _ token: lws_token_indexes, cap: Int) -> String? {
        guard cws_header_present(wsi, Int32(token.rawValue)) != 0 else { return nil }
        return header(wsi, token, cap: cap) ?? ""
    }

    /// A request header's value, nil when absent or longer than `cap`.
    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes, cap: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: cap)
        let n = cws_request_header(wsi, Int32(token.rawValue), &buffer, Int32(cap))
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
