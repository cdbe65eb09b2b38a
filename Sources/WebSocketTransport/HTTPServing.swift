import CLibWebSockets
import CWebSocketShim
import Foundation
import Logging

/// The HTTP side of the server, on the service thread: every request is screened
/// (``RequestScreen``); upgrades are checked and admitted (the credential waits for
/// the connection to be established); the app's routes are read, handed to their
/// handlers and answered (HTTPServing+Routes.swift); the rest are static files.
/// Knows nothing of WebSocket connections once they are established.
final class HTTPServing {
    let configuration: WebSocketServerConfiguration
    let logger: Logger
    /// Where a route's answer is posted back to the service thread.
    let loop: ServiceLoop<TransportCommand>
    let files: StaticFiles?
    /// Mounted directories, longest prefix first.
    let mounts: [(prefix: String, files: StaticFiles)]
    /// Gzipped copies of the text files served.
    let compressed = CompressedFiles()
    let screen: RequestScreen
    /// What ``WebSocketServerConfiguration/admit`` accepted each upgrade with, until
    /// the connection is established (every upgrade passes the check first, so a
    /// reused handle never inherits another's).
    private var admitted: [OpaquePointer: (any Sendable)?] = [:]
    /// Bytes each HTTP connection had received when its last request was read
    /// (``requestHeadBytes(_:)``), until it closes or upgrades.
    private var requestEnds: [OpaquePointer: UInt64] = [:]
    /// Requests to the app's routes, from their headers to their answer.
    var routeRequests: RouteRequests<OpaquePointer>

    init(configuration: WebSocketServerConfiguration, logger: Logger, loop: ServiceLoop<TransportCommand>) {
        self.configuration = configuration
        self.logger = logger
        self.loop = loop
        files = configuration.publicDirectory.map(StaticFiles.init(root:))
        mounts = configuration.mounts.map { (prefix: $0.key, files: StaticFiles(root: $0.value)) }.sorted { $0.prefix.count > $1.prefix.count }
        screen = RequestScreen(configuration: configuration)
        routeRequests = RouteRequests(limits: .init(maxPending: configuration.maxPendingRoutes,
                                                    maxPendingPerAddress: configuration.maxPendingRoutesPerAddress,
                                                    timeout: configuration.routeTimeout))
    }

    /// The credential the upgrade of `wsi` was admitted with, taken as its
    /// connection is established.
    func takeCredential(_ wsi: OpaquePointer) -> (any Sendable)? {
        admitted.removeValue(forKey: wsi) ?? nil
    }

    /// `LWS_CALLBACK_CLOSED_HTTP`: what was kept for the request is forgotten.
    func closed(_ wsi: OpaquePointer) {
        requestEnds[wsi] = nil
        routeRequests.finish(wsi)
    }
    /// `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`: a wrong upgrade gets an HTTP answer, not a dropped connection.
    func confirmUpgrade(_ wsi: OpaquePointer, port: Int) -> Int32 {
        let offered = LWSRequest.header(wsi, WSI_TOKEN_PROTOCOL, cap: 1024)
        // An empty or blank Origin is an Origin (refused), not a missing one.
        let origin = LWSRequest.presentHeader(wsi, WSI_TOKEN_ORIGIN, cap: configuration.headerSpace)
        let path = LWSRequest.path(wsi)
        let target = Int(cws_request_target_bytes(wsi))
        let head = requestHeadBytes(wsi)
        requestEnds[wsi] = nil
        // (An upgrade is HTTP/1.1 whatever lws says yet: Host is required.)
        if let refusal = screen.screenUpgrade(path: path, uriBytes: target, headerBytes: max(Int(cws_request_header_bytes(wsi)), head - target),
                                              offered: offered, origin: origin, host: LWSRequest.presentHeader(wsi, WSI_TOKEN_HOST, cap: 256),
                                              port: port) {
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
            if let value = LWSRequest.header(wsi, token, cap: configuration.headerSpace) { headers[name] = value }
        }
        let handshake = Handshake(path: path, query: LWSRequest.header(wsi, WSI_TOKEN_HTTP_URI_ARGS, cap: configuration.headerSpace) ?? "",
                                  headers: headers, remoteAddress: LWSRequest.peerAddress(wsi))
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

    /// `LWS_CALLBACK_HTTP`: a static file (with validators, 304 when unchanged), or a status.
    func serveHTTP(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int, port: Int) -> Int32 {
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
        let uri = LWSRequest.path(wsi)
        let path = uri.isEmpty ? (input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/") : uri
        // The app's routes come before the files.
        if let router = configuration.routes, let answer = serveRoute(wsi, method: method, path: path, router: router, port: port) { return answer }
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
            let gzip = compressible && CompressedFiles.acceptsGzip(LWSRequest.header(wsi, WSI_TOKEN_HTTP_ACCEPT_ENCODING, cap: 512))
            var served = validators
            if gzip { served.etag = CompressedFiles.gzipTag(validators.etag) }
            var headers = "cache-control: no-cache\r\netag: \(served.etag)\r\nlast-modified: \(validators.lastModified)\r\n"
            if compressible { headers += "vary: accept-encoding\r\n" }
            if contentType.hasPrefix("text/html") {
                headers += "content-security-policy: \(RequestScreen.contentSecurityPolicy(host: LWSRequest.header(wsi, WSI_TOKEN_HOST, cap: 256), tls: configuration.usesTLS))\r\n"
            }
            if served.unchanged(ifNoneMatch: LWSRequest.header(wsi, WSI_TOKEN_HTTP_IF_NONE_MATCH, cap: 1024),
                                ifModifiedSince: LWSRequest.header(wsi, WSI_TOKEN_HTTP_IF_MODIFIED_SINCE, cap: 128)) {
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
}
