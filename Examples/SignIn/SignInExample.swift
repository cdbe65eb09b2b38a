import CollectionServer
import Foundation

/// Sign-in on the library's own HTTP server: a form (`signin.html`) posts a name
/// and a role to `/signin`, which answers with the signed token cookie and sends
/// the browser on; every page of the server then connects as that user (the
/// ticket board lets owners move their tickets). `/signout` deletes the cookie;
/// `/me` says who the browser is, for pages to show.
///
/// A real app checks a password or asks an identity provider here; the token,
/// the cookie and what pages do with them stay the same.
public enum SignInExample {
    /// The roles the form offers: editors change collections, viewers watch and select.
    public static let roles: Set<String> = ["editor", "viewer"]

    /// Adds `/signin`, `/signout` and `/me` to `server`.
    public static func add(to server: CollectionServer) {
        server.addRoute(.post, "/signin") { request in
            let form = request.formValues
            let name = (form["name"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            let next = localPath(form["next"])
            guard (1...40).contains(name.count) else { return .redirect(to: "/signin.html?error=name&next=\(escaped(next))") }
            let role = roles.contains(form["role"] ?? "") ? form["role"]! : "viewer"
            guard server.configuration.tokens != nil else { return .redirect(to: "/signin.html?error=unavailable&next=\(escaped(next))") }
            return try server.signIn(Identity(id: name.lowercased(), name: name, roles: [role]), for: 8 * 3600, redirectTo: next)
        }
        server.addRoute(.post, "/signout") { request in
            server.signOut(redirectTo: "/signin.html?next=\(escaped(localPath(request.formValues["next"])))")
        }
        server.addRoute(.get, "/me") { request in
            struct Me: Encodable { var signedIn: Bool; var name: String?; var roles: [String] }
            if case .user(let identity) = server.authentication(of: request) {
                return try .json(Me(signedIn: true, name: identity.name, roles: identity.roles.sorted()))
            }
            return try .json(Me(signedIn: false, name: nil, roles: []))
        }
    }

    /// `path` when it is a path of this server ("/tickets.html"), else "/": a form
    /// may not send the browser to another site.
    static func localPath(_ path: String?) -> String {
        guard let path, path.hasPrefix("/"), !path.hasPrefix("//"), !path.contains("\\"),
              path.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else { return "/" }
        return path
    }

    static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "/._-"))) ?? "/"
    }
}
