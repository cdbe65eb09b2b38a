import CollectionServer
import Foundation
import SignInExample
import Testing

/// The sign-in example's routes, as a browser uses them: the form's post sets the
/// token cookie and sends the browser on, `/me` reads it back, the WebSocket
/// takes it, and what should be refused is.
@Suite(.tags(.integration)) struct SignInExampleTests {
    func server(tokens: Bool = true) throws -> (CollectionServer, Int) {
        var configuration = CollectionServer.Configuration.testing
        if tokens { configuration.tokens = try TokenSigner(secret: testSecret) }
        let server = CollectionServer(configuration: configuration)
        _ = server.addCollection(named: "main")
        SignInExample.add(to: server)
        return (server, try server.start())
    }

    func post(_ port: Int, _ path: String, _ form: String, cookie: String? = nil) async throws -> RawAnswer {
        var headers = ["Content-Type: application/x-www-form-urlencoded", "Origin: http://127.0.0.1:\(port)"]
        if let cookie { headers.append("Cookie: \(cookie)") }
        return try #require(await RawHTTP(port: port)?.exchange(httpRequest("POST", path, port: port, headers: headers, body: form)))
    }

    @Test func theFormSignsInAndTheCookieNamesTheUserToRoutesAndSockets() async throws {
        let (server, port) = try server()
        defer { server.stop() }
        let answer = try await post(port, "/signin", "name=Chlo%C3%A9&role=viewer&next=%2Ftickets.html")
        #expect(answer.status == 303)
        #expect(answer.headers["location"] == "/tickets.html")
        let cookie = String(try #require(answer.headers["set-cookie"]).split(separator: ";")[0])
        let me = try #require(await RawHTTP(port: port)?.exchange(httpRequest("GET", "/me", port: port, headers: ["Cookie: \(cookie)"])))
        #expect(me.headers["content-type"] == "application/json")
        let said = try JSONSerialization.jsonObject(with: Data(me.body.utf8)) as? [String: Any]
        #expect(said?["signedIn"] as? Bool == true)
        #expect(said?["name"] as? String == "Chloé")
        #expect(said?["roles"] as? [String] == ["viewer"])
        let socket = try RawWebSocket(port: port, headers: "Cookie: \(cookie)\r\n")
        socket.send([#"{"type":"hello","protocol":1,"viewport":{"width":800,"height":600}}"#])
        #expect(socket.read(until: "Chlo", count: 1))
        // Signing out deletes the cookie and goes back to the form.
        let out = try await post(port, "/signout", "next=%2Ftickets.html", cookie: cookie)
        #expect(out.status == 303)
        #expect(out.headers["set-cookie"]?.hasPrefix("collection_token=;") == true)
        #expect(out.headers["location"] == "/signin.html?next=/tickets.html")
    }

    @Test func aMissingNameAForeignNextAndAServerWithoutSecretAreRefusedWithReasons() async throws {
        let (server, port) = try server()
        defer { server.stop() }
        // No name: back to the form, saying why, with nothing set.
        let empty = try await post(port, "/signin", "name=++&role=editor&next=%2Ftickets.html")
        #expect(empty.headers["location"] == "/signin.html?error=name&next=/tickets.html")
        #expect(empty.headers["set-cookie"] == nil)
        // A next that leaves the site goes home instead; an unknown role is a viewer.
        let away = try await post(port, "/signin", "name=Ana&role=admin&next=%2F%2Fevil.example%2F")
        #expect(away.headers["location"] == "/")
        let cookie = String(try #require(away.headers["set-cookie"]).split(separator: ";")[0])
        let me = try #require(await RawHTTP(port: port)?.exchange(httpRequest("GET", "/me", port: port, headers: ["Cookie: \(cookie)"])))
        #expect(me.body.contains(#""roles":["viewer"]"#))
        // A server without a token secret cannot sign anyone in, and says so.
        let (plain, plainPort) = try self.server(tokens: false)
        defer { plain.stop() }
        let refused = try await post(plainPort, "/signin", "name=Ana&role=editor")
        #expect(refused.headers["location"] == "/signin.html?error=unavailable&next=/")
        #expect(refused.headers["set-cookie"] == nil)
    }
}
