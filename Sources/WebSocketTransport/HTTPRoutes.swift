import Foundation
import Locking

/// The methods an app's route answers.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// Reads (a `HEAD` request is answered by the `GET` route, with no body).
    case get = "GET"
    /// Sends a body: a form, JSON.
    case post = "POST"
}

/// A request to one of the app's routes: what the browser sent, read in full (the
/// body is at most ``WebSocketServerConfiguration/maxRequestBodyBytes``).
public struct HTTPRequest: Sendable {
    /// `GET` (also for a `HEAD` request) or `POST`.
    public var method: HTTPMethod
    /// True for a `HEAD` request: the response's body is not sent.
    public var isHead: Bool
    /// The path, decoded, without the query.
    public var path: String
    /// The query as `name=value` pairs joined by `&`, values decoded.
    public var query: String
    /// Headers by lower-case name, those the server reads: `accept`,
    /// `accept-language`, `authorization`, `content-type`, `cookie`, `host`, `origin`,
    /// `referer`, `user-agent`, `x-forwarded-for` (when present).
    public var headers: [String: String]
    /// The body's bytes (empty for `GET`).
    public var body: [UInt8]
    /// The peer's IP address.
    public var remoteAddress: String

    /// A request (what the server builds; tests build their own).
    /// - Parameters:
    ///   - method: `GET` or `POST`.
    ///   - path: The path, from `/`, without the query.
    ///   - query: The query string, without `?`.
    ///   - headers: Headers by lower-case name.
    ///   - body: A `POST`'s body.
    ///   - remoteAddress: The peer's IP address.
    ///   - isHead: Whether it was a `HEAD` (answered as its `GET`, without the body).
    public init(method: HTTPMethod, path: String, query: String = "", headers: [String: String] = [:], body: [UInt8] = [],
                remoteAddress: String = "", isHead: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.isHead = isHead
    }

    /// The same request as a WebSocket handshake would show it (path, query,
    /// headers, address): what decides who made it.
    public var handshake: Handshake { Handshake(path: path, query: query, headers: headers, remoteAddress: remoteAddress) }

    /// The query's parameters (the first value of each name).
    public var queryItems: [String: String] { handshake.queryItems }

    /// The `Cookie` header's cookies (the first value of each name).
    public var cookies: [String: String] { handshake.cookies }

    /// The fields of an HTML form's body (`application/x-www-form-urlencoded`: `+`
    /// is a space, `%XX` a byte), the first value of each name; empty for any other
    /// content type.
    public var formValues: [String: String] {
        guard let type = headers["content-type"]?.lowercased(), type.hasPrefix("application/x-www-form-urlencoded") else { return [:] }
        return Self.decodeForm(String(decoding: body, as: UTF8.self))
    }

    /// `name=value&…` pairs of a form, decoded.
    static func decodeForm(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = formDecode(parts[0])
            guard !name.isEmpty, values[name] == nil else { continue }
            values[name] = parts.count > 1 ? formDecode(parts[1]) : ""
        }
        return values
    }

    private static func formDecode(_ part: Substring) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}

/// What a route answers: a status, headers and a body. Sent with the server's own
/// headers (`x-content-type-options`, `referrer-policy`, HSTS over TLS), a
/// Content-Security-Policy for HTML as for the pages it serves, and
/// `cache-control: no-store` unless the response says otherwise.
public struct HTTPResponse: Sendable {
    /// The status: 200, 303, 401…
    public var status: Int
    /// Header lines, in order (names as written; `Set-Cookie` may repeat). The server
    /// writes `content-length` itself.
    public var headers: [(name: String, value: String)]
    /// The body (at most 1 MiB: larger content is a static file).
    public var body: [UInt8]

    /// A response with `status`, `headers` and `body`.
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Headers in order (not `content-length`).
    ///   - body: The body.
    public init(status: Int = 200, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Plain text.
    /// - Parameters:
    ///   - text: The body, sent as UTF-8.
    ///   - status: The status code.
    /// - Returns: The response, `text/plain`.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("content-type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }

    /// An HTML page (served with the pages' Content-Security-Policy: no inline script).
    /// - Parameters:
    ///   - html: The page.
    ///   - status: The status code.
    /// - Returns: The response, `text/html`.
    public static func html(_ html: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("content-type", "text/html; charset=utf-8")], body: Array(html.utf8))
    }

    /// JSON from an `Encodable` value.
    /// - Parameters:
    ///   - value: What to encode.
    ///   - status: The status code.
    /// - Returns: The response, `application/json`.
    /// - Throws: What `JSONEncoder` throws for `value`.
    public static func json(_ value: some Encodable, status: Int = 200) throws -> HTTPResponse {
        HTTPResponse(status: status, headers: [("content-type", "application/json")], body: Array(try JSONEncoder().encode(value)))
    }

    /// A redirect to `location` (303 See Other by default: after a form, the browser
    /// GETs it).
    /// - Parameters:
    ///   - location: Where the browser goes (a path or a URL).
    ///   - status: The status code (303 See Other by default; 302, 307 and 308 also redirect).
    /// - Returns: The response, with no body.
    public static func redirect(to location: String, status: Int = 303) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("location", location)])
    }

    /// A cookie to set with a response (`Set-Cookie`, RFC 6265).
    public struct Cookie: Sendable, Equatable {
        /// How a cross-site request carries the cookie.
        public enum SameSite: String, Sendable {
            /// Never with a request from another site.
            case strict = "Strict"
            /// With another site's links to this one, not with its forms or scripts.
            case lax = "Lax"
            /// Always (then ``secure`` too).
            case none = "None"
        }

        /// The cookie's name.
        public var name: String
        /// Its value (no `;`, `,`, spaces or quotes: base64url or a token is safe).
        public var value: String
        /// Seconds it lives (0 deletes it); nil: until the browser closes.
        public var maxAge: Int?
        /// The paths it is sent to ("/": all).
        public var path: String = "/"
        /// Not readable by page scripts.
        public var httpOnly = true
        /// Sent over https only.
        public var secure = false
        /// Whether requests from other sites carry it.
        public var sameSite: SameSite = .lax

        /// A cookie `name=value`, for every path, hidden from scripts, `SameSite=Lax`.
        /// - Parameters:
        ///   - name: The cookie's name.
        ///   - value: Its value, sent as it is (keep to URL-safe characters).
        ///   - maxAge: Seconds it lives (nil: until the browser closes; 0: removed).
        ///   - path: The paths it is sent to.
        ///   - httpOnly: Whether page scripts cannot read it.
        ///   - secure: Whether it is sent over https only (always with `SameSite=None`).
        ///   - sameSite: Whether requests from other sites carry it.
        public init(name: String, value: String, maxAge: Int? = nil, path: String = "/", httpOnly: Bool = true, secure: Bool = false,
                    sameSite: SameSite = .lax) {
            self.name = name
            self.value = value
            self.maxAge = maxAge
            self.path = path
            self.httpOnly = httpOnly
            self.secure = secure
            self.sameSite = sameSite
        }

        /// The `Set-Cookie` header's value.
        public var headerValue: String {
            var text = "\(name)=\(value); Path=\(path)"
            if let maxAge { text += "; Max-Age=\(maxAge)" }
            if httpOnly { text += "; HttpOnly" }
            if secure || sameSite == .none { text += "; Secure" }
            text += "; SameSite=\(sameSite.rawValue)"
            return text
        }
    }

    /// Adds a `Set-Cookie` header.
    /// - Parameter cookie: The cookie.
    public mutating func setCookie(_ cookie: Cookie) {
        headers.append(("set-cookie", cookie.headerValue))
    }

    /// The first header called `name` (any case).
    /// - Parameter name: The header's name.
    /// - Returns: Its value, or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Why the server will not send this response as it is (nil: it will): a header
    /// name that is not a token, a value with a line break, a framing header, a
    /// status outside 200-599, a body over 1 MiB.
    var problem: String? {
        guard (200...599).contains(status) else { return "status \(status) is not one a route may answer with (200-599)" }
        guard body.count <= Self.maxBodyBytes else { return "its body is \(body.count) bytes; a route answers with at most \(Self.maxBodyBytes)" }
        for (name, value) in headers {
            guard !name.isEmpty, name.utf8.allSatisfy({ Self.tokenBytes.contains($0) }) else { return "header name '\(name.prefix(40))' is not a token" }
            guard !value.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 }) else { return "header \(name) has a line break in its value" }
            guard !Self.framing.contains(name.lowercased()) else { return "header \(name) is the server's to write" }
        }
        return nil
    }

    static let maxBodyBytes = 1_048_576
    private static let framing: Set<String> = ["content-length", "transfer-encoding", "connection", "keep-alive", "upgrade"]
    private static let tokenBytes = Set(Array("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))
}

/// The app's routes: paths the server answers with the app's code, before its
/// files. Routes may be added at any time; each is found by its exact path, or by
/// prefix when its path ends in `*` (`/api/*`). Thread-safe.
public final class HTTPRouter: Sendable {
    /// A route's handler: runs on a task, never on the service thread.
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    private struct Route {
        var method: HTTPMethod
        var path: String
        var handler: Handler
        func matches(_ requested: String) -> Bool {
            path.hasSuffix("*") ? requested.hasPrefix(path.dropLast()) : requested == path
        }
    }

    private let routes = Locked<[Route]>([])

    /// An empty router.
    public init() {}

    /// Answers `method` requests to `path` with `handler`; a route added again for
    /// the same method and path replaces the first.
    public func add(_ method: HTTPMethod, _ path: String, handler: @escaping Handler) {
        routes.withLock { routes in
            routes.removeAll { $0.method == method && $0.path == path }
            routes.append(Route(method: method, path: path, handler: handler))
        }
    }

    /// Whether any route is set.
    public var isEmpty: Bool { routes.withLock { $0.isEmpty } }

    /// The methods routes answer at `path` (empty: no route there).
    public func methods(at path: String) -> [HTTPMethod] {
        routes.withLock { routes in HTTPMethod.allCases.filter { m in routes.contains { $0.method == m && $0.matches(path) } } }
    }

    /// What a request for `path` with `method` finds.
    public enum Match: Sendable {
        /// A route's handler.
        case handler(Handler)
        /// Routes at this path, but for other methods: 405 with `Allow`.
        case wrongMethod(allowed: [HTTPMethod])
        /// No route: the static files answer.
        case none
    }

    /// The route for `method` at `path`: an exact path wins over a prefix, a longer
    /// prefix over a shorter one.
    public func match(_ method: HTTPMethod, _ path: String) -> Match {
        routes.withLock { routes in
            let found = routes.filter { $0.matches(path) }
            guard !found.isEmpty else { return .none }
            func rank(_ r: Route) -> (Int, Int) { (r.path.hasSuffix("*") ? 0 : 1, r.path.count) }
            let best = found.filter { $0.method == method }.max { rank($0) < rank($1) }
            if let best { return .handler(best.handler) }
            return .wrongMethod(allowed: HTTPMethod.allCases.filter { m in found.contains { $0.method == m } })
        }
    }
}
