import CollectionPostgres
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Testing

/// The PostgreSQL store over TLS, as libpq's `sslmode`, `sslrootcert`, `sslcert` and
/// `sslkey` say, against a private server that takes TLS connections only over TCP
/// (``TestPostgres/launchOnTCP()``: its certificate names `localhost`, not
/// 127.0.0.1; the database `certified` asks for a client certificate).
@Suite(.enabled(if: TestPostgres.current != nil, Comment(rawValue: TestPostgres.missing)), .serialized, .tags(.postgres))
struct PostgresTLSTests {
    /// A batch appended and read back through a store opened on `url`; the number of
    /// the server's connections that use TLS while the store is open.
    func roundTrip(_ url: String, on server: TestPostgres) throws -> Int {
        let store = try PostgresCollectionStore(url: url)
        defer { store.close() }
        let name = "photos_\(UInt32.random(in: 0...UInt32.max))"   // a collection of its own
        let journaled = try JournaledHub(photoHub(name), store: store)
        _ = hello(journaled.hub, 1)
        let out = try journaled.send(#"{"type":"move","op":"m","item":"a1","section":"b"}"#, from: 1)
        #expect(out.contains { $0.message == .ack(op: "m", seq: 1) })
        #expect(try store.log(of: name, after: 0).map(\.seq) == [1])
        return Int(try server.sql("SELECT count(*) FROM pg_stat_ssl WHERE ssl").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    func failure(_ url: String) -> String {
        do {
            let store = try PostgresCollectionStore(url: url)
            store.close()
            return "connected"
        } catch {
            return error.description
        }
    }

    @Test func connectionsUseTLSAndCheckTheCertificateAsTheModeSays() throws {
        let (server, port, certificates) = try TestPostgres.launchOnTCP()
        defer { server.shutdown() }
        for name in ["plain", "certified"] { try server.sql("CREATE DATABASE \(name)") }
        let at = "postgres://collections@127.0.0.1:\(port)/plain"
        let named = "postgres://collections@localhost:\(port)/plain"
        let authority = "sslrootcert=\(certificates.authority)"

        // Without TLS the server refuses (so the connections below are TLS ones).
        #expect(failure(at + "?sslmode=disable").contains("cannot reach PostgreSQL at collections@127.0.0.1:\(port)/plain (sslmode=disable)"))
        // libpq's default (prefer), and require: TLS, the certificate not checked.
        #expect(try roundTrip(at, on: server) >= 1)
        // allow: refused without TLS, so asked again with it.
        #expect(try roundTrip(at + "?sslmode=allow", on: server) >= 1)
        #expect(try roundTrip(at + "?sslmode=require", on: server) >= 1)
        // verify-ca: signed by the authority named, whatever the host.
        #expect(try roundTrip(at + "?sslmode=verify-ca&" + authority, on: server) >= 1)
        let unsigned = "TLS: the server's certificate is not signed by"
        #expect(failure(at + "?sslmode=verify-ca&sslrootcert=\(certificates.otherAuthority)").contains("\(unsigned) the authorities in '\(certificates.otherAuthority)'"))
        // The system's authorities never signed the test one.
        #expect(failure(at + "?sslmode=verify-ca").contains("\(unsigned) the system's authorities"))
        // require with an authority named checks the chain, as libpq.
        #expect(failure(at + "?sslmode=require&sslrootcert=\(certificates.otherAuthority)").contains(unsigned))
        // verify-full: the name too. The certificate names localhost, not 127.0.0.1.
        #expect(failure(at + "?sslmode=verify-full&" + authority).contains("TLS: the server's certificate does not name '127.0.0.1'"))
        #expect(try roundTrip(named + "?sslmode=verify-full&" + authority, on: server) >= 1)

        // A database that asks for a client certificate: refused without one, served with one.
        let certified = "postgres://collections@127.0.0.1:\(port)/certified?sslmode=verify-ca&" + authority
        #expect(failure(certified).contains("connection requires a valid client certificate"))
        #expect(try roundTrip(certified + "&sslcert=\(certificates.clientCertificate)&sslkey=\(certificates.clientKey)", on: server) >= 1)
    }

    @Test func withoutTLSOnTheServerPreferGoesOnPlainAndRequireIsRefused() throws {
        let (server, port, certificates) = try TestPostgres.launchOnTCP(tls: false)
        defer { server.shutdown() }
        try server.sql("CREATE DATABASE plain")
        let at = "postgres://collections@127.0.0.1:\(port)/plain"
        // libpq's default: TLS if offered, else plain (no TLS connection on the server).
        #expect(try roundTrip(at, on: server) == 0)
        #expect(try roundTrip(at + "?sslmode=allow", on: server) == 0)
        for mode in ["require", "verify-ca&sslrootcert=\(certificates.authority)", "verify-full&sslrootcert=\(certificates.authority)"] {
            #expect(failure(at + "?sslmode=" + mode).contains("TLS: the server does not offer it (sslmode=\(mode.prefix { $0 != "&" }) requires it"))
        }
    }

    /// On a server that takes both, allow goes without TLS (its first attempt) and
    /// prefer with it, as libpq; allow meeting a refusal both ways says what each met.
    @Test func allowTriesWithoutTLSFirstAndPreferWithIt() throws {
        let (server, port, _) = try TestPostgres.launchOnTCP(plainToo: true)
        defer { server.shutdown() }
        for name in ["plain", "certified"] { try server.sql("CREATE DATABASE \(name)") }
        let at = "postgres://collections@127.0.0.1:\(port)/"
        #expect(try roundTrip(at + "plain?sslmode=allow", on: server) == 0)
        #expect(try roundTrip(at + "plain", on: server) >= 1)
        // `certified` refuses plain connections and TLS ones without a client certificate.
        let both = failure(at + "certified?sslmode=allow")
        #expect(both.contains("without TLS: ") && both.contains("; with TLS: ") && both.contains("connection requires a valid client certificate"))
    }

    /// A private server that cannot be made leaves no folder behind.
    @Test func aServerThatCannotBeMadeLeavesNoFolder() throws {
        var folders: [String] = []
        struct Refused: Error {}
        #expect(throws: Refused.self) { try TestPostgres.initialized { folders.append($0); throw Refused() } }
        // initdb refuses a data folder that holds a file.
        #expect(throws: (any Error).self) {
            try TestPostgres.initialized { folder in
                folders.append(folder)
                try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: false)
                try "x".write(toFile: folder + "/data/stray", atomically: false, encoding: .utf8)
            }
        }
        #expect(folders.count == 2 && folders.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    }

    @Test func tlsSettingsItCannotHonourAreRefusedBeforeConnecting() {
        let nowhere = "postgres://collections@127.0.0.1:1/x"
        #expect(failure(nowhere + "?sslmode=always").contains("sslmode=always is not a mode (known: disable, allow, prefer, require, verify-ca, verify-full)"))
        #expect(failure(nowhere + "?sslcert=/tmp/c.crt").contains("sslcert without sslkey"))
        #expect(failure(nowhere + "?sslkey=/tmp/c.key").contains("sslkey without sslcert"))
        #expect(failure(nowhere + "?sslmode=verify-ca&sslrootcert=/nonexistent/ca.crt").contains("PostgreSQL TLS: cannot use '/nonexistent/ca.crt'"))
        #expect(failure(nowhere + "?sslcompression=1").contains("the PostgreSQL URL's 'sslcompression' is not understood"))
        // A Unix socket never uses TLS (libpq): sslmode=verify-full there reaches the socket as ever.
        #expect(failure("postgres:///x?host=/nonexistent&sslmode=verify-full").contains("cannot reach PostgreSQL at"))
    }
}
