import CollectionProtocol
import CollectionServer
import Foundation
import ProjectTestSupport
import Synchronization
import Testing

let testSecret = Array("thirty-two bytes or more of secret for tests".utf8)

/// base64url without padding, as JWTs write their parts.
func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

@Suite struct TokenTests {
    let signer = try! TokenSigner(secret: testSecret)
    let ana = Identity(id: "ana", name: "Ana", roles: ["editor"], color: "#e4572e")

    @Test func aTokenCarriesItsIdentityUntilItExpires() throws {
        let token = signer.token(for: ana, expiresAt: Date().addingTimeInterval(60))
        #expect(try signer.verify(token) == ana)
        #expect(token.split(separator: ".").count == 3)
        do {
            // (A minute's leeway for clocks that differ.)
            _ = try signer.verify(token, now: Date().addingTimeInterval(121))
            Issue.record("an expired token was taken")
        } catch {
            #expect(error.kind == .expired)
        }
    }

    @Test func tokensIssuedAheadOrLivingTooLongAreRefused() throws {
        let now = Date()
        // Issued in the future (past the minute's leeway): not yet valid; within it: taken.
        let ahead = signer.token(for: ana, expiresAt: now.addingTimeInterval(3_600), issuedAt: now.addingTimeInterval(300))
        #expect { try signer.verify(ahead, now: now) } throws: { ($0 as? TokenError)?.kind == .notYetValid }
        let skewed = signer.token(for: ana, expiresAt: now.addingTimeInterval(3_600), issuedAt: now.addingTimeInterval(30))
        #expect(try signer.verify(skewed, now: now) == ana)
        // A year-long token passes the longest lifetime (30 days by default).
        let forever = signer.token(for: ana, expiresAt: now.addingTimeInterval(365 * 24 * 3_600), issuedAt: now)
        #expect { try signer.verify(forever, now: now) } throws: { ($0 as? TokenError)?.kind == .tooLong }
        var lenient = signer
        lenient.maxLifetime = nil
        #expect(try lenient.verify(forever, now: now) == ana)
        // Expired a moment ago, within the leeway: still taken; past it: refused.
        let expired = signer.token(for: ana, expiresAt: now.addingTimeInterval(-30), issuedAt: now.addingTimeInterval(-600))
        #expect(try signer.verify(expired, now: now) == ana)
        #expect { try signer.verify(expired, now: now.addingTimeInterval(60)) } throws: { ($0 as? TokenError)?.kind == .expired }
    }

    @Test func audienceAndIssuerAreCheckedWhenSet() throws {
        var app = signer
        app.audience = "retro"
        app.issuer = "login.example.com"
        let token = app.token(for: ana, expiresAt: Date().addingTimeInterval(60))
        #expect(try app.verify(token) == ana)
        #expect(try signer.verify(token) == ana, "a server that checks neither takes it")
        var other = app
        other.audience = "photos"
        #expect { try other.verify(token) } throws: { ($0 as? TokenError)?.kind == .wrongParty }
        var elsewhere = app
        elsewhere.issuer = "evil.example.com"
        #expect { try elsewhere.verify(token) } throws: { ($0 as? TokenError)?.kind == .wrongParty }
        // A token without the claims is refused where they are required.
        #expect { try app.verify(signer.token(for: ana, expiresAt: Date().addingTimeInterval(60))) } throws: { ($0 as? TokenError)?.kind == .wrongParty }
    }

    @Test func forgedAndMalformedTokensAreRefused() throws {
        let token = signer.token(for: ana, expiresAt: Date().addingTimeInterval(60))
        let other = try TokenSigner(secret: Array("another secret, thirty-two bytes long or more".utf8))
        let parts = token.split(separator: ".").map(String.init)
        let admin = base64URL(Data(#"{"sub":"ana","roles":["admin"],"exp":9999999999}"#.utf8))
        let cases: [(String, TokenError.Kind)] = [
            (other.token(for: ana, expiresAt: Date().addingTimeInterval(60)), .badSignature),
            ([parts[0], admin, parts[2]].joined(separator: "."), .badSignature),
            ([base64URL(Data(#"{"alg":"none"}"#.utf8)), parts[1], ""].joined(separator: "."), .malformed),
            ("a.b", .malformed),
            ("", .malformed),
            ([parts[0], parts[1], "***"].joined(separator: "."), .malformed),
            (String(repeating: "a", count: 5_000), .malformed),
        ]
        for (bad, kind) in cases {
            do {
                _ = try signer.verify(bad)
                Issue.record("\(bad.prefix(40)) was taken")
            } catch {
                #expect(error.kind == kind, "\(bad.prefix(40)): \(error)")
            }
        }
        #expect(throws: TokenError.self) { try TokenSigner(secret: Array("short".utf8)) }
    }
}

/// Remembers who selected.
final class WhoSelected: LiveCollectionDelegate {
    let seen = Mutex<[Viewer]>([])
    func collectionView(_ collectionView: LiveCollection, didSelectItemAt indexPath: IndexPath, by viewer: Viewer) {
        seen.withLock { $0.append(viewer) }
    }
}

@Suite(.tags(.integration)) struct IdentityTests {
    /// A server with tokens, an app hook that refuses one address, and a shelf only editors change.
    func server(requireToken: Bool = false, hook: (@Sendable (Handshake) -> Authentication)? = nil) throws -> (CollectionServer, LiveCollection, WhoSelected, Int) {
        var configuration = CollectionServer.Configuration.testing
        configuration.tokens = try TokenSigner(secret: testSecret)
        configuration.requireToken = requireToken
        configuration.authenticate = hook
        let server = CollectionServer(configuration: configuration)
        let shelf = server.addCollection(named: "shelf")
        var model = CollectionModel()
        model.snapshot.appendSections(["s"])
        model.snapshot.appendItems(["a", "b", "c"], toSection: "s")
        for id in ["a", "b", "c"] { model.itemContent[id] = ["title": id] }
        shelf.load(model)
        shelf.allowedEdits = .all
        shelf.setPermissions { $0.roles.contains("editor") ? .all : $0.roles.contains("guest") ? [.view] : [.view, .select] }
        let delegate = WhoSelected()
        shelf.delegate = delegate
        return (server, shelf, delegate, try server.start())
    }

    func token(_ id: String, _ name: String, roles: Set<String> = []) throws -> String {
        try TokenSigner(secret: testSecret).token(for: Identity(id: id, name: name, roles: roles), expiresAt: Date().addingTimeInterval(300))
    }

    @Test func delegatesAndPresenceSeeTheIdentityAndPermissionsFollowRoles() async throws {
        let (server, shelf, delegate, port) = try server()
        defer { server.stop() }
        let editor = try await TestViewer.connect(port: port, path: "/ws?token=\(try token("ed", "Edith", roles: ["editor"]))")
        try await editor.hello(name: "not my name", collection: "shelf")
        #expect(editor.mirror.viewer?.name == "Edith")
        let reader = try await TestViewer.connect(port: port, path: "/ws?token=\(try token("rita", "Rita"))")
        guard case .welcome(let welcome) = try await reader.hello(collection: "shelf") else { Issue.record("no welcome"); return }
        #expect(welcome.viewers.map(\.name) == ["Edith", "Rita"])
        // Rita may select (the delegate hears who), not edit.
        reader.send(#"{"type":"select","item":"a","selected":true}"#)
        _ = try await editor.next("selection")
        #expect(delegate.seen.withLock { $0.map(\.user) } == ["rita"])
        #expect(delegate.seen.withLock { $0.first?.roles } == [])
        reader.send(#"{"type":"delete","op":"x","items":["a"]}"#)
        guard case .reject(_, .forbidden, let message) = try await reader.next("reject") else { Issue.record("not forbidden"); return }
        #expect(message == "user 'rita' may not edit collection 'shelf'; nothing changed")
        #expect(shelf.sequence == 0 && shelf.model.snapshot.numberOfItems == 3)
        #expect(await editor.staysQuiet())
        // A guest only watches: selecting is refused too.
        let guest = try await TestViewer.connect(port: port, path: "/ws?token=\(try token("gus", "Gus", roles: ["guest"]))")
        try await guest.hello(collection: "shelf")
        guest.send(#"{"type":"select","item":"b","selected":true}"#)
        guard case .error(.forbidden, _, _) = try await guest.next("error") else { Issue.record("not forbidden"); return }
    }

    @Test func aGuestCannotPassForASignedInUser() async throws {
        let (server, _, _, port) = try server()
        defer { server.stop() }
        let ana = try await TestViewer.connect(port: port, path: "/ws?token=\(try token("ana", "Ana", roles: ["editor"]))")
        try await ana.hello(collection: "shelf")
        let impostor = try await TestViewer.connect(port: port)
        guard case .welcome(let welcome) = try await impostor.hello(name: "Ana", collection: "shelf") else { Issue.record("no welcome"); return }
        // Both are called Ana; everyone is told which of them signed in.
        let named = welcome.viewers.filter { $0.name == "Ana" }
        #expect(named.count == 2)
        #expect(named.filter(\.guest).map(\.id) == [impostor.mirror.viewer?.id])
        #expect(impostor.mirror.viewer?.guest == true && ana.mirror.viewer?.guest == false)
        guard case .presenceChange(let joined, _) = try await ana.next("presenceChange") else { return }
        #expect(joined.map(\.guest) == [true])
    }

    @Test func aViewerWithoutViewRightsIsNotWelcomed() async throws {
        let (server, shelf, _, port) = try server()
        defer { server.stop() }
        shelf.setPermissions { $0.user == nil ? [] : .all }
        let anonymous = try await TestViewer.connect(port: port)
        anonymous.send(#"{"type":"hello","viewport":{"width":300,"height":200},"collection":"shelf"}"#)
        guard case .error(.forbidden, let message, _) = try await anonymous.next("error") else { Issue.record("not forbidden"); return }
        #expect(message == "a guest may not view collection 'shelf'")
    }

    @Test func anAppHookDecidesFromTheHandshake() async throws {
        let (server, _, _, port) = try server(requireToken: true) { handshake in
            if handshake.queryItems["who"] == "robot" { return .refuse(status: 403, reason: "no robots") }
            if let who = handshake.queryItems["who"] { return .user(Identity(id: who, name: who.capitalized, roles: ["editor"])) }
            return .anonymous
        }
        defer { server.stop() }
        let ana = try await TestViewer.connect(port: port, path: "/ws?who=ana")
        try await ana.hello(collection: "shelf")
        #expect(ana.mirror.viewer?.name == "Ana")
        await #expect(throws: (any Error).self) { _ = try await TestViewer.connect(port: port, path: "/ws?who=robot", timeout: .seconds(2)) }
        // Anonymous, with tokens required: refused.
        await #expect(throws: (any Error).self) { _ = try await TestViewer.connect(port: port, timeout: .seconds(2)) }
    }
}
