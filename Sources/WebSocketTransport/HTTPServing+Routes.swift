import CLibWebSockets
import CWebSocketShim
import Foundation

/// The app's routes on the service thread: a request is read (its body, bounded),
/// handed to its handler on a task, and the answer written when the handler
/// returns (``TransportCommand/answer(_:_:)``), or 504 when it takes too long.
extension HTTPServing {
    /// The request headers a route sees, by the name it sees them under.
    static let routeHeaders: [(String, lws_token_indexes)] = [
        ("accept", WSI_TOKEN_HTTP_ACCEPT), ("accept-language", WSI_TOKEN_HTTP_ACCEPT_LANGUAGE),
        ("authorization", WSI_TOKEN_HTTP_AUTHORIZATION), ("content-type", WSI_TOKEN_HTTP_CONTENT_TYPE),
        ("content-length", WSI_TOKEN_HTTP_CONTENT_LENGTH), ("cookie", WSI_TOKEN_HTTP_COOKIE), ("host", WSI_TOKEN_HOST),
        ("origin", WSI_TOKEN_ORIGIN), ("referer", WSI_TOKEN_HTTP_REFERER), ("user-agent", WSI_TOKEN_HTTP_USER_AGENT),
        ("x-forwarded-for", WSI_TOKEN_X_FORWARDED_FOR),
    ]

    /// `LWS_CALLBACK_HTTP` for a path the app has routes at: 405 for another method,
    /// 503 when too many requests wait, and for a `POST` 403 from a foreign page,
    /// 411 without a length, 413 over the limit. nil: no route here (files answer).
    func serveRoute(_ wsi: OpaquePointer, method: Int32, path: String, router: HTTPRouter, port: Int) -> Int32? {
        let allowed = router.methods(at: path)
        guard !allowed.isEmpty else { return nil }
        // lws's method indices: GET 0, POST 1, HEAD 7.
        let verb: HTTPMethod? = method == 0 || method == 7 ? .get : method == 1 ? .post : nil
        guard let verb, allowed.contains(verb), case .handler(let handler) = router.match(verb, path) else {
            let names = allowed.flatMap { $0 == .get ? ["GET", "HEAD"] : [$0.rawValue] }.joined(separator: ", ")
            return cws_http_respond(wsi, 405, "allow: \(names)\r\n", "\(path.prefix(200)) is answered with \(names)\n", 0)
        }
        let address = LWSRequest.peerAddress(wsi)
        if let why = routeRequests.refusal(from: address) {
            logger.warning("503 \(path): \(why)")
            return cws_http_respond(wsi, 503, "retry-after: 1\r\n", why + "\n", 0)
        }
        var headers: [String: String] = [:]
        for (name, token) in Self.routeHeaders {
            if let value = LWSRequest.header(wsi, token, cap: configuration.headerSpace) { headers[name] = value }
        }
        if verb == .post {
            // A form posted from a page of another origin is refused, as its upgrades are.
            if let origin = LWSRequest.presentHeader(wsi, WSI_TOKEN_ORIGIN, cap: configuration.headerSpace),
               !configuration.origins.allows(origin: origin, boundHost: configuration.host, port: port,
                                             tls: configuration.usesTLS, hostHeader: headers["host"]) {
                return cws_http_respond(wsi, 403, "", "pages from origin '\(origin.prefix(200))' may not post here\n", 0)
            }
            if cws_header_present(wsi, Int32(WSI_TOKEN_HTTP_TRANSFER_ENCODING.rawValue)) != 0 {
                return cws_http_respond(wsi, 411, "", "send the body with a Content-Length, not chunked\n", 0)
            }
            guard let length = headers["content-length"].flatMap({ Int($0) }), length >= 0 else {
                return cws_http_respond(wsi, 411, "", "a POST needs a Content-Length\n", 0)
            }
            guard length <= configuration.maxRequestBodyBytes else {
                return cws_http_respond(wsi, 413, "", "the body is \(length) bytes; the limit is \(configuration.maxRequestBodyBytes)\n", 0)
            }
        }
        let request = HTTPRequest(method: verb, path: path, query: LWSRequest.header(wsi, WSI_TOKEN_HTTP_URI_ARGS, cap: configuration.headerSpace) ?? "",
                                  headers: headers, remoteAddress: address, isHead: method == 7)
        routeRequests.begin(wsi, address: address, request: request, handler: handler, now: Self.now())
        // A POST's body comes next (LWS_CALLBACK_HTTP_BODY…, even an empty one).
        if verb == .get { dispatchRoute(wsi) }
        return 0
    }

    /// `LWS_CALLBACK_HTTP_BODY`: a piece of a route's body. nil: not a route's.
    func routeBody(_ wsi: OpaquePointer, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32? {
        guard routeRequests.pending[wsi] != nil else { return nil }
        guard let input, length > 0 else { return 0 }
        guard routeRequests.append(UnsafeRawBufferPointer(start: input, count: length), to: wsi, limit: configuration.maxRequestBodyBytes) else {
            routeRequests.finish(wsi)
            return cws_http_respond(wsi, 413, "", "the body is over \(configuration.maxRequestBodyBytes) bytes\n", 0)
        }
        return 0
    }

    /// `LWS_CALLBACK_HTTP_BODY_COMPLETION`: the body is in; the handler runs. nil: not a route's.
    func routeBodyComplete(_ wsi: OpaquePointer) -> Int32? {
        guard routeRequests.pending[wsi] != nil else { return nil }
        dispatchRoute(wsi)
        return 0
    }

    /// Hands a request to its handler on a task; its answer comes back as a command.
    func dispatchRoute(_ wsi: OpaquePointer) {
        guard let (id, request, handler) = routeRequests.dispatch(wsi) else { return }
        // lws would close a connection that waits more than 5 s for its answer: the
        // handler has its own time (answered 504 past it), and a margin for the sweep.
        lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, Int32(configuration.routeTimeout.rounded(.up)) + 5)
        let loop = self.loop
        Task {
            let response = await handler(request)
            loop.post(.answer(id, response))
        }
    }

    /// The app answered request `id`: written when its connection can take it.
    func routeAnswered(_ id: UInt64, _ response: HTTPResponse) {
        guard let wsi = routeRequests.answer(id, with: response) else { return }
        lws_callback_on_writable(wsi)
    }

    /// `LWS_CALLBACK_HTTP_WRITEABLE`: writes a route's answer, if one waits. nil: none does.
    func writeRouteAnswer(_ wsi: OpaquePointer) -> Int32? {
        guard let (request, answer) = routeRequests.takeResponse(wsi) else { return nil }
        var response = answer
        if let problem = response.problem {
            logger.error("the answer to \(request.method.rawValue) \(request.path) cannot be sent: \(problem)")
            response = .text("the app's answer could not be sent\n", status: 500)
        }
        var lines = ""
        var type: String?
        var cached = false
        for (name, value) in response.headers {
            lines += "\(name): \(value)\r\n"
            switch name.lowercased() {
            case "content-type": type = value.lowercased()
            case "cache-control": cached = true
            default: break
            }
        }
        if type == nil, !response.body.isEmpty { lines += "content-type: application/octet-stream\r\n" }
        if !cached { lines += "cache-control: no-store\r\n" }
        if type?.hasPrefix("text/html") == true {
            lines += "content-security-policy: \(RequestScreen.contentSecurityPolicy(host: request.headers["host"], tls: configuration.usesTLS))\r\n"
        }
        logger.debug("\(response.status) \(request.method.rawValue) \(request.path)")
        return response.body.withUnsafeBytes { body in
            cws_http_answer(wsi, UInt32(response.status), lines, body.baseAddress, body.count, request.isHead ? 0 : 1)
        }
    }

    /// Handlers that took too long: their requests are answered 504 now.
    func expireRoutes(now: Double) {
        for wsi in routeRequests.expire(now: now) {
            logger.warning("504: a route's handler did not answer within \(RouteRequests<OpaquePointer>.seconds(configuration.routeTimeout)) s")
            lws_callback_on_writable(wsi)
        }
    }

    static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
