import Foundation
import Testing
import WebSocketTransport

@Suite struct HTTPRulesTests {
    @Test func validatorsAnswerConditionalRequests() {
        // 1994-11-06 08:49:37 UTC, RFC 9110's example date.
        let v = StaticFiles.Validators(size: 255, modified: Date(timeIntervalSince1970: 784_111_777))
        #expect(v.lastModified == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(v.etag == "\"ff-\(String(Int64(784_111_777) * 1_000_000_000, radix: 16))\"")
        #expect(v.unchanged(ifNoneMatch: v.etag, ifModifiedSince: nil))
        #expect(v.unchanged(ifNoneMatch: "\"x\", W/\(v.etag)", ifModifiedSince: nil))
        #expect(v.unchanged(ifNoneMatch: "*", ifModifiedSince: nil))
        #expect(!v.unchanged(ifNoneMatch: "\"other\"", ifModifiedSince: v.lastModified))   // the ETag wins
        #expect(v.unchanged(ifNoneMatch: nil, ifModifiedSince: v.lastModified))
        #expect(v.unchanged(ifNoneMatch: nil, ifModifiedSince: "Mon, 07 Nov 1994 00:00:00 GMT"))
        #expect(!v.unchanged(ifNoneMatch: nil, ifModifiedSince: "Sun, 06 Nov 1994 08:49:36 GMT"))
        #expect(!v.unchanged(ifNoneMatch: nil, ifModifiedSince: "yesterday"))
        #expect(!v.unchanged(ifNoneMatch: nil, ifModifiedSince: nil))
    }

    @Test func screenRefusesWithTheRightStatus() {
        var c = WebSocketServerConfiguration()
        c.extraWebSocketPath = "/echo"
        let screen = RequestScreen(configuration: c)
        #expect(screen.screen(method: 0, uriBytes: 10, headerBytes: 100) == nil)        // GET
        #expect(screen.screen(method: 7, uriBytes: 10, headerBytes: 100) == nil)        // HEAD
        for method in [1, 3, 4, 5] {                                                     // POST, PUT, PATCH, DELETE
            #expect(screen.screen(method: method, uriBytes: 10, headerBytes: 100)?.status == 405)
            #expect(screen.screen(method: method, uriBytes: 10, headerBytes: 100)?.headers == "allow: GET, HEAD\r\n")
        }
        #expect(screen.screen(method: 0, uriBytes: 8_193, headerBytes: 9_000)?.status == 414)
        #expect(screen.screen(method: 0, uriBytes: 100, headerBytes: 16_385)?.status == 431)
        let host = "127.0.0.1"
        #expect(screen.screenUpgrade(path: "/ws", uriBytes: 3, headerBytes: 300, offered: nil, host: host) == nil)
        #expect(screen.screenUpgrade(path: "/ws", uriBytes: 3, headerBytes: 300, offered: "chat, collection.v1", host: host) == nil)
        #expect(screen.screenUpgrade(path: "/echo", uriBytes: 5, headerBytes: 300, offered: "anything", host: host) == nil)
        #expect(screen.screenUpgrade(path: "/other", uriBytes: 6, headerBytes: 300, offered: nil, host: host)?.status == 404)
        #expect(screen.screenUpgrade(path: "/ws", uriBytes: 3, headerBytes: 300, offered: "chat", host: host)?.status == 400)
        #expect(screen.screenUpgrade(path: "/ws", uriBytes: 9_000, headerBytes: 9_300, offered: nil, host: host)?.status == 414)
    }

    @Test func http11WithoutAHostIsRefusedAndAnEmptyOriginIsNotAMissingOne() {
        var c = WebSocketServerConfiguration()
        c.host = "127.0.0.1"
        let screen = RequestScreen(configuration: c)
        #expect(screen.screen(method: 0, uriBytes: 10, headerBytes: 100, hasHost: false)?.status == 400)
        #expect(screen.screen(method: 0, uriBytes: 10, headerBytes: 100, hasHost: false, http10: true) == nil)
        // Sizes come first: a long target without a Host is still 414.
        #expect(screen.screen(method: 0, uriBytes: 9_000, headerBytes: 100, hasHost: false)?.status == 414)
        #expect(screen.screenUpgrade(path: "/ws", uriBytes: 3, headerBytes: 100, offered: nil)?.status == 400)
        #expect(screen.screenUpgrade(path: "/ws", uriBytes: 3, headerBytes: 100, offered: nil, host: "127.0.0.1:80", port: 80) == nil)
        for origin in ["", "   "] {
            #expect(screen.screenUpgrade(path: "/ws", uriBytes: 3, headerBytes: 100, offered: nil, origin: origin, host: "127.0.0.1:80", port: 80)?.status == 403)
        }
    }

    @Test func contentSecurityPolicyNamesOnlyThePagesOwnHost() {
        let csp = RequestScreen.contentSecurityPolicy(host: "127.0.0.1:8080", tls: false)
        #expect(csp.contains("connect-src 'self' ws://127.0.0.1:8080;"))
        #expect(!csp.contains("ws: ") && !csp.contains("wss:;"))
        #expect(RequestScreen.contentSecurityPolicy(host: "example.org", tls: true).contains("connect-src 'self' wss://example.org;"))
        // A Host header that is not a plain host is left out.
        #expect(RequestScreen.contentSecurityPolicy(host: "a; script-src *", tls: false).contains("connect-src 'self';"))
    }

    @Test func floodGuardCountsFramesAndBytes() {
        var frames = FloodGuard(framesPerSecond: 100, bytesPerSecond: 1_000_000)
        // A burst of twice the rate passes; one more in the same instant does not.
        var admitted = 0
        for _ in 0..<200 where frames.admit(bytes: 0, at: 1) { admitted += 1 }
        #expect(admitted == 200)
        let overBurst = frames.admit(bytes: 0, at: 1)
        #expect(!overBurst)
        var later = FloodGuard(framesPerSecond: 100, bytesPerSecond: 1_000_000)
        var steady = 0
        for i in 0..<1_000 where later.admit(bytes: 0, at: 1 + Double(i) / 100) { steady += 1 }
        #expect(steady == 1_000)   // at the rate: forever
        var bytes = FloodGuard(framesPerSecond: 1_000, bytesPerSecond: 1_000)
        let burst = bytes.admit(bytes: 2_000, at: 0)
        let more = bytes.admit(bytes: 1, at: 0)
        #expect(burst && !more)
    }
}
