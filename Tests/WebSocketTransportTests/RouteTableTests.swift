import Testing
import WebSocketTransport

/// The app's routes as pure tables: which handler a request finds, and how the
/// requests waiting for their answers are counted, answered and timed out.
@Suite struct RouteTableTests {
    func answering(_ text: String) -> HTTPRouter.Handler { { _ in .text(text) } }

    func body(_ match: HTTPRouter.Match) async -> String? {
        guard case .handler(let handler) = match else { return nil }
        return String(decoding: await handler(HTTPRequest(method: .get, path: "/")).body, as: UTF8.self)
    }

    @Test func anExactPathWinsOverAPrefixAndALongerPrefixOverAShorterOne() async {
        let router = HTTPRouter()
        router.add(.get, "/api/*", handler: answering("api"))
        router.add(.get, "/api/cards/*", handler: answering("cards"))
        router.add(.get, "/api/cards/new", handler: answering("new"))
        router.add(.post, "/api/cards/new", handler: answering("create"))
        #expect(await body(router.match(.get, "/api/x")) == "api")
        #expect(await body(router.match(.get, "/api/cards/7")) == "cards")
        #expect(await body(router.match(.get, "/api/cards/new")) == "new")
        #expect(await body(router.match(.post, "/api/cards/new")) == "create")
        // Another method at a routed path: which ones are answered there.
        guard case .wrongMethod(let allowed) = router.match(.post, "/api/x") else { Issue.record("POST /api/x found a handler"); return }
        #expect(allowed == [.get])
        guard case .none = router.match(.get, "/elsewhere") else { Issue.record("/elsewhere matched"); return }
        #expect(router.methods(at: "/api/cards/new") == [.get, .post])
        // Added again: replaced.
        router.add(.get, "/api/*", handler: answering("api 2"))
        #expect(await body(router.match(.get, "/api/x")) == "api 2")
    }

    @Test func waitingRequestsAreCountedAnsweredAndTimedOut() {
        var table = RouteRequests<Int>(limits: .init(maxPending: 3, maxPendingPerAddress: 2, timeout: 10))
        let handler = answering("x")
        table.begin(1, address: "a", request: HTTPRequest(method: .get, path: "/1"), handler: handler, now: 0)
        table.begin(2, address: "a", request: HTTPRequest(method: .get, path: "/2"), handler: handler, now: 0)
        // Two from address a: a third waits; b may still come, until three wait in all.
        #expect(table.refusal(from: "a") != nil)
        #expect(table.refusal(from: "b") == nil)
        table.begin(3, address: "b", request: HTTPRequest(method: .post, path: "/3"), handler: handler, now: 5)
        #expect(table.refusal(from: "c") != nil)
        // A body arrives, bounded.
        #expect([UInt8]("abc".utf8).withUnsafeBytes { table.append($0, to: 3, limit: 4) })
        #expect(![UInt8]("de".utf8).withUnsafeBytes { table.append($0, to: 3, limit: 4) })
        // Handed to the app once.
        let first = table.dispatch(1)
        #expect(first?.request.path == "/1")
        #expect(table.dispatch(1) == nil)
        let third = table.dispatch(3)
        #expect(third?.request.body == Array("abc".utf8))
        // Its answer finds its connection; a second answer to it, nothing.
        #expect(table.answer(first!.id, with: .text("one")) == 1)
        #expect(table.answer(first!.id, with: .text("again")) == nil)
        #expect(table.takeResponse(1).map { String(decoding: $0.response.body, as: UTF8.self) } == "one")
        #expect(table.count == 2)
        // Past the timeout, a dispatched request with no answer gets 504; one not
        // dispatched (its body still coming) is not the app's to time out.
        #expect(table.expire(now: 14).isEmpty)
        #expect(table.expire(now: 16) == [3])
        #expect(table.takeResponse(3)?.response.status == 504)
        // The app's late answer finds nothing.
        #expect(table.answer(third!.id, with: .text("late")) == nil)
        // A connection that closes ends its request and frees its address's place.
        table.finish(2)
        #expect(table.count == 0)
        #expect(table.refusal(from: "a") == nil)
    }
}
