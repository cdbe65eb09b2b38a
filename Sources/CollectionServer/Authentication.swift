import CollectionSync
import WebSocketTransport

/// What an app's authentication decided about a WebSocket handshake.
public enum Authentication: Sendable {
    /// A signed-in user: its name and colour are what others see; permissions
    /// (``LiveCollection/setPermissions(_:)``) read its id and roles.
    case user(Identity)
    /// Nobody in particular: allowed unless ``CollectionServer/Configuration/requireToken``.
    case anonymous
    /// Refused before the upgrade, with this HTTP status (401, 403) and reason.
    case refuse(status: Int, reason: String)
}

extension CollectionServer.Configuration {
    /// The built-in authentication: a signed token (``TokenSigner``) from the
    /// query (`?token=`), the cookie ``tokenCookie``, or an `Authorization: Bearer`
    /// header. No token: anonymous. A bad, forged or expired one: 401.
    func tokenAuthentication(_ handshake: Handshake) -> Authentication {
        var token = handshake.queryItems["token"] ?? handshake.cookies[tokenCookie]
        if token == nil, let header = handshake.headers["authorization"], header.lowercased().hasPrefix("bearer ") {
            token = String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        guard let token, !token.isEmpty else { return .anonymous }
        guard let tokens else { return .refuse(status: 401, reason: "this server takes no tokens (it has no token secret)") }
        do {
            return .user(try tokens.verify(token))
        } catch {
            return .refuse(status: 401, reason: error.message)
        }
    }

    /// The transport's admission: the app's hook (or the built-in tokens), then the
    /// rule that anonymous viewers need ``requireToken`` off.
    func admission(_ handshake: Handshake) -> Admission {
        switch (authenticate ?? tokenAuthentication)(handshake) {
        case .user(let identity):
            return .accept(credential: identity)
        case .anonymous:
            return requireToken ? .refuse(status: 401, reason: "this server requires a token: sign in first") : .accept(credential: nil)
        case let .refuse(status, reason):
            return .refuse(status: status, reason: reason)
        }
    }
}
