import Foundation
import WebSocketTransport

extension CollectionServer {
    /// Answers `method` requests to `path` with `handler`, before the public
    /// directory's files: a sign-in form's target, a JSON endpoint, a page made on
    /// the fly. A path ending in `*` answers every path under it (`/api/*`); an
    /// exact path wins over it. A `GET` route also answers `HEAD`.
    ///
    /// The handler runs on a task, never on the thread that moves bytes; it gets
    /// the request read in full (a `POST`'s body at most
    /// ``Configuration/maxRequestBodyBytes``, else 413) and has
    /// ``Configuration/routeTimeout`` seconds to answer (else 504). A thrown error
    /// answers 500 (the error goes to the log, not to the browser). A `POST` from a
    /// page of another origin than the server's and ``Configuration/allowedOrigins``
    /// is refused (403) before the handler runs.
    ///
    /// ```swift
    /// server.addRoute(.post, "/signin") { request in
    ///     let form = request.formValues
    ///     guard let name = form["name"], !name.isEmpty else { return .redirect(to: "/signin.html?error=name") }
    ///     return try server.signIn(Identity(id: name.lowercased(), name: name, roles: ["editor"]), redirectTo: "/")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - method: `.get` (which answers `HEAD` too) or `.post`.
    ///   - path: The path it answers, from `/`.
    ///   - handler: Makes the response; what it throws is answered 500 and logged.
    public func addRoute(_ method: HTTPMethod, _ path: String, handler: @escaping @Sendable (HTTPRequest) async throws -> HTTPResponse) {
        precondition(path.hasPrefix("/"), "a route's path starts with '/' (got '\(path)')")
        precondition(path != "/ws" && path != "/healthz" && !path.hasPrefix(CollectionClient.mountPath),
                     "\(path) is the server's own: routes may not take /ws, /healthz or \(CollectionClient.mountPath)")
        let logger = engine.logger
        router.add(method, path) { request in
            do {
                return try await handler(request)
            } catch {
                logger.error("\(request.method.rawValue) \(request.path) failed: \(error)")
                return .text("the server could not answer this request\n", status: 500)
            }
        }
    }

    /// Who sent `request`, as the server would admit a WebSocket handshake with
    /// the same cookies, headers and query: ``Configuration/authenticate`` when set,
    /// else the built-in token (`?token=`, the ``Configuration/tokenCookie`` cookie,
    /// `Authorization: Bearer`).
    ///
    /// - Parameter request: A request to one of the app's routes.
    /// - Returns: The identity it carries, or why it carries none.
    public func authentication(of request: HTTPRequest) -> Authentication {
        (configuration.authenticate ?? configuration.tokenAuthentication)(request.handshake)
    }

    /// A response that signs `identity` in: a token for it, valid `seconds` (12 hours
    /// by default), set as the ``Configuration/tokenCookie`` cookie (`HttpOnly`,
    /// `SameSite=Lax`, `Secure` over TLS), and a redirect to `location`. Pages of
    /// this server then connect as that user with nothing more to do.
    /// Throws when the server has no ``Configuration/tokens`` to sign with.
    ///
    /// - Parameters:
    ///   - identity: Who is signed in (its id, name, roles).
    ///   - seconds: How long the token is valid.
    ///   - location: Where the browser goes next.
    /// - Returns: A `303` response that sets the cookie.
    /// - Throws: ``TokenError`` when the server has no ``Configuration/tokens``.
    public func signIn(_ identity: Identity, for seconds: TimeInterval = 12 * 3600, redirectTo location: String = "/") throws(TokenError) -> HTTPResponse {
        guard let tokens = configuration.tokens else {
            throw TokenError(.badSecret, "this server has no token secret to sign in with (Configuration.tokens)")
        }
        let lifetime = min(seconds, tokens.maxLifetime ?? seconds)
        var response = HTTPResponse.redirect(to: location)
        response.setCookie(HTTPResponse.Cookie(name: configuration.tokenCookie, value: tokens.token(for: identity, expiresAt: Date().addingTimeInterval(lifetime)),
                                      maxAge: Int(lifetime), secure: configuration.usesTLS))
        return response
    }

    /// A response that signs the browser out: the token cookie is deleted, and a
    /// redirect to `location`. (Pages already open keep their connection, as the
    /// user it was made for, until they reconnect.)
    ///
    /// - Parameter location: Where the browser goes next.
    /// - Returns: A `303` response that deletes the cookie.
    public func signOut(redirectTo location: String = "/") -> HTTPResponse {
        var response = HTTPResponse.redirect(to: location)
        response.setCookie(HTTPResponse.Cookie(name: configuration.tokenCookie, value: "", maxAge: 0, secure: configuration.usesTLS))
        return response
    }
}
