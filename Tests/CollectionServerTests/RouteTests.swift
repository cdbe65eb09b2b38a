import CollectionServer
import ProjectTestSupport
import Foundation
import Synchronization
import Testing

/// The app's HTTP routes on the library's server: read, answered, refused, timed
/// out, and a sign-in whose cookie the WebSocket then takes.
/// A count shared with handlers.
final class Counter: Sendable {
    let value = Atomic<Int>(0)
}

@Suite(.tags(.integration)) struct RouteTests {
    /// A server with tokens, one collection and the routes of a small app.
    final class App: Sendable {
        let server: CollectionServer
        let port: Int
        /// How many times the sign-in handler ran.
        let posts = Counter()

        init(routeTimeout: Double = 30) throws {
            var configuration = CollectionServer.Configuration.testing
            configuration.tokens = try TokenSigner(secret: testSecret)
            configuration.maxRequestBodyBytes = 200
            configuration.routeTimeout = routeTimeout
            let server = CollectionServer(configuration: configuration)
            self.server = server
            let shelf = server.addCollection(named: "shelf")
            var model = CollectionModel()
            model.snapshot.appendSections(["s"])
            model.snapshot.appendItems(["a"], toSection: "s")
            shelf.load(model)
            server.addRoute(.get, "/hello") { request in
                .text("hello \(request.queryItems["who"] ?? "nobody"), theme \(request.cookies["theme"] ?? "none")")
            }
            server.addRoute(.get, "/me") { request in
                switch server.authentication(of: request) {
                case .user(let identity): .text("signed in as \(identity.name)")
                case .anonymous: .text("anonymous")
                case .refuse(let status, _): .text("refused", status: status)
                }
            }
            let posts = self.posts
            server.addRoute(.post, "/signin") { request in
                posts.value.add(1, ordering: .relaxed)
                let form = request.formValues
                guard let name = form["name"], !name.isEmpty else { return .redirect(to: "/signin.html?error=name") }
                return try server.signIn(Identity(id: name.lowercased(), name: name, roles: [form["role"] ?? "viewer"]), redirectTo: "/board")
            }
            server.addRoute(.get, "/api/*") { request in .text("api \(request.path)") }
            server.addRoute(.get, "/api/special") { _ in .text("special") }
            server.addRoute(.get, "/page") { _ in .html("<!doctype html><p>made on the fly</p>") }
            server.addRoute(.get, "/broken") { _ in
                struct Broken: Error {}
                throw Broken()
            }
            server.addRoute(.get, "/bad-header") { _ in HTTPResponse(headers: [("x-note", "one\r\nset-cookie: evil=1")]) }
            server.addRoute(.get, "/slow") { _ in
                try await Task.sleep(for: .seconds(60))
                return .text("late")
            }
            port = try server.start()
        }

        deinit { server.stop() }

        func connection() throws -> RawHTTP { try #require(RawHTTP(port: port)) }
    }

    @Test func aGetRouteAnswersWithTheQueryCookiesAndTheServersHeadersAndKeepsTheConnection() async throws {
        let app = try App()
        let http = try app.connection()
        let answer = try #require(await http.exchange(httpRequest("GET", "/hello?who=Ana%20Lima", port: app.port, headers: ["Cookie: theme=dark; other=1"])))
        #expect(answer.status == 200)
        #expect(answer.body == "hello Ana Lima, theme dark")
        #expect(answer.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(answer.headers["cache-control"] == "no-store")
        #expect(answer.headers["x-content-type-options"] == "nosniff")
        // The same connection takes the next request: HEAD, its headers without the body.
        let head = try #require(await http.exchange(httpRequest("HEAD", "/hello?who=Ana%20Lima", port: app.port, headers: ["Cookie: theme=dark"]), head: true))
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == String("hello Ana Lima, theme dark".utf8.count))
        // A prefix route answers under it; an exact one wins over it.
        #expect(await http.exchange(httpRequest("GET", "/api/cards/12", port: app.port))?.body == "api /api/cards/12")
        #expect(await http.exchange(httpRequest("GET", "/api/special", port: app.port))?.body == "special")
        // An HTML page gets the pages' Content-Security-Policy.
        let page = try #require(await http.exchange(httpRequest("GET", "/page", port: app.port)))
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(page.body.contains("made on the fly"))
    }

    @Test func signingInSetsTheCookieThatTheWebSocketTakes() async throws {
        let app = try App()
        let http = try app.connection()
        let answer = try #require(await http.exchange(httpRequest("POST", "/signin", port: app.port, headers: [
            "Content-Type: application/x-www-form-urlencoded", "Origin: http://127.0.0.1:\(app.port)",
        ], body: "name=Ana+Lima&role=editor")))
        #expect(answer.status == 303)
        #expect(answer.headers["location"] == "/board")
        let setCookie = try #require(answer.headers["set-cookie"])
        #expect(setCookie.hasPrefix("collection_token="))
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Max-Age=43200"))
        let cookie = String(setCookie.split(separator: ";")[0])
        // The browser sends it back: routes see who it is…
        #expect(await http.exchange(httpRequest("GET", "/me", port: app.port, headers: ["Cookie: \(cookie)"]))?.body == "signed in as Ana Lima")
        #expect(await http.exchange(httpRequest("GET", "/me", port: app.port))?.body == "anonymous")
        // …and so does the WebSocket: the welcome names the user.
        let socket = try RawWebSocket(port: app.port, headers: "Cookie: \(cookie)\r\n")
        socket.send([#"{"type":"hello","protocol":1,"viewport":{"width":800,"height":600},"collection":"shelf"}"#])
        #expect(socket.read(until: "Ana Lima", count: 1))
        // Signing out deletes the cookie.
        let out = app.server.signOut(redirectTo: "/")
        #expect(out.header("set-cookie")?.hasPrefix("collection_token=; Path=/; Max-Age=0") == true)
    }

    @Test func postsThatCannotBeTakenAreRefusedBeforeTheHandlerRuns() async throws {
        let app = try App()
        let form = ["Content-Type: application/x-www-form-urlencoded"]
        // From another site's page: 403.
        let foreign = try #require(await app.connection().exchange(httpRequest("POST", "/signin", port: app.port,
                                                                               headers: form + ["Origin: https://evil.example"], body: "name=Eve")))
        #expect(foreign.status == 403)
        // No length: 411. Over the limit: 413.
        let unsized = try #require(await app.connection().exchange("POST /signin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        #expect(unsized.status == 411)
        let large = try #require(await app.connection().exchange(httpRequest("POST", "/signin", port: app.port, headers: form,
                                                                             body: "name=" + String(repeating: "x", count: 300))))
        #expect(large.status == 413)
        // The wrong method: 405, saying which.
        let wrong = try #require(await app.connection().exchange(httpRequest("POST", "/hello", port: app.port, body: "")))
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, HEAD")
        #expect(app.posts.value.load(ordering: .relaxed) == 0)
        // An empty form reaches the handler (which sends the person back to the form).
        let empty = try #require(await app.connection().exchange(httpRequest("POST", "/signin", port: app.port, headers: form, body: "")))
        #expect(empty.status == 303)
        #expect(empty.headers["location"] == "/signin.html?error=name")
        #expect(app.posts.value.load(ordering: .relaxed) == 1)
    }

    @Test func aFailingOrMalformedAnswerIs500() async throws {
        let app = try App()
        let http = try app.connection()
        let broken = try #require(await http.exchange(httpRequest("GET", "/broken", port: app.port)))
        #expect(broken.status == 500)
        #expect(!broken.body.contains("Broken"))
        // A header that would smuggle another header is not sent.
        let bad = try #require(await http.exchange(httpRequest("GET", "/bad-header", port: app.port)))
        #expect(bad.status == 500)
        #expect(bad.headers["set-cookie"] == nil)
    }

    /// lws closes an HTTP connection that waits 5 s for its answer: a handler given
    /// more time by ``CollectionServer/Configuration/routeTimeout`` still answers.
    @Test func aHandlerSlowerThanLwsOwnFiveSecondsStillAnswers() async throws {
        let app = try App()
        app.server.addRoute(.get, "/six") { _ in
            try await Task.sleep(for: .seconds(6))
            return .text("done")
        }
        let http = try #require(RawHTTP(port: app.port, timeout: 40))
        let answer = try #require(await http.exchange(httpRequest("GET", "/six", port: app.port)))
        #expect(answer.status == 200 && answer.body == "done")
    }

    /// (The timing itself is RouteTableTests'; here, that the server keeps it.)
    @Test func aHandlerThatDoesNotAnswerInTimeIs504AndTheConnectionGoesOn() async throws {
        let app = try App(routeTimeout: 1)
        let http = try app.connection()
        // A browser that leaves while its request waits: nothing is written for it,
        // and its place is given back.
        do {
            let leaving = try app.connection()
            leaving.send(httpRequest("GET", "/slow", port: app.port))
        }
        let slow = try #require(await http.exchange(httpRequest("GET", "/slow", port: app.port)))
        #expect(slow.status == 504)
        #expect(slow.body.contains("did not answer within 1 s"))
        // The same connection takes the next request (one the server answers itself,
        // which no busy thread pool can hold up).
        let next = try #require(await http.exchange(httpRequest("GET", "/not-a-route", port: app.port)))
        #expect(next.status == 404)
    }

    @Test func routesAndRequestsArePure() {
        // Forms decode `+` and `%XX`; the first value of a name wins.
        let request = HTTPRequest(method: .post, path: "/f", headers: ["content-type": "application/x-www-form-urlencoded; charset=UTF-8"],
                                  body: Array("name=Ana+Lima&note=a%26b%3Dc&name=Other&empty=".utf8))
        #expect(request.formValues == ["name": "Ana Lima", "note": "a&b=c", "empty": ""])
        #expect(HTTPRequest(method: .post, path: "/f", headers: ["content-type": "application/json"], body: Array("a=b".utf8)).formValues.isEmpty)
        // Cookies say what they are.
        #expect(HTTPResponse.Cookie(name: "t", value: "v", maxAge: 60, secure: true).headerValue == "t=v; Path=/; Max-Age=60; HttpOnly; Secure; SameSite=Lax")
        #expect(HTTPResponse.Cookie(name: "t", value: "v", httpOnly: false, sameSite: .none).headerValue == "t=v; Path=/; Secure; SameSite=None")
    }
}
