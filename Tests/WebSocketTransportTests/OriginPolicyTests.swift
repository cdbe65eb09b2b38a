import Testing
import WebSocketTransport

@Suite struct OriginPolicyTests {
    @Test func originsAreNormalized() {
        #expect(OriginPolicy.normalize("HTTPS://App.Example.com:443") == "https://app.example.com")
        #expect(OriginPolicy.normalize("http://localhost:80/") == "http://localhost")
        #expect(OriginPolicy.normalize("http://127.0.0.1:8080") == "http://127.0.0.1:8080")
        for bad in ["null", "file://", "app.example.com", "ws://x", "http://x/page", "http://user@x", "http://"] {
            #expect(OriginPolicy.normalize(bad) == nil, "\(bad)")
        }
    }

    @Test func theServersOwnOriginDependsOnWhereItListens() {
        let loopback = OriginPolicy.ownOrigins(boundHost: "127.0.0.1", port: 8080, tls: false, hostHeader: "evil.example:8080")
        #expect(loopback == ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"])
        #expect(OriginPolicy.ownOrigins(boundHost: "board.example.com", port: 443, tls: true, hostHeader: nil) == ["https://board.example.com"])
        // A wildcard address answers to the name the browser asked for.
        #expect(OriginPolicy.ownOrigins(boundHost: "0.0.0.0", port: 8080, tls: false, hostHeader: "10.0.0.5:8080") == ["http://10.0.0.5:8080"])
        #expect(OriginPolicy.ownOrigins(boundHost: "0.0.0.0", port: 8080, tls: false, hostHeader: nil).isEmpty)
    }

    @Test func onlyOwnAllowedOrAbsentOriginsPass() {
        let policy = OriginPolicy(allowing: ["https://app.example.com", "not an origin"])
        #expect(policy.allowed == ["https://app.example.com"])
        func allows(_ origin: String?) -> Bool { policy.allows(origin: origin, boundHost: "127.0.0.1", port: 8080, tls: false, hostHeader: "127.0.0.1:8080") }
        #expect(allows(nil))
        #expect(allows("http://localhost:8080"))
        #expect(allows("https://app.example.com:443"))
        #expect(!allows("http://evil.example"))
        #expect(!allows("null"))
        #expect(!allows("http://localhost:8081"))
        #expect(!allows("https://localhost:8080"))
        // The Host header does not make a foreign page "own" on a named or loopback bind (DNS rebinding).
        #expect(!policy.allows(origin: "http://evil.example:8080", boundHost: "127.0.0.1", port: 8080, tls: false, hostHeader: "evil.example:8080"))
    }

    @Test func theUpgradeScreenRefusesAForeignOriginWith403() {
        var configuration = WebSocketServerConfiguration()
        configuration.host = "127.0.0.1"
        let screen = RequestScreen(configuration: configuration)
        let refusal = screen.screenUpgrade(path: "/ws", uriBytes: 3, headerBytes: 100, offered: "collection.v1", origin: "http://evil.example", host: "127.0.0.1:8080", port: 8080)
        #expect(refusal?.status == 403)
        #expect(screen.screenUpgrade(path: "/ws", uriBytes: 3, headerBytes: 100, offered: "collection.v1", origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080", port: 8080) == nil)
    }
}
