import Foundation

/// Certificates for a TLS test, made with the `openssl` program in a folder of
/// their own: an authority, a server certificate it signed, a client certificate it
/// signed for the user `collections`, and a second authority that signed neither.
public struct TestCertificates: Sendable {
    /// The folder holding them (``TestPostgres/shutdown()`` of the server using them removes it).
    public let folder: String
    /// The authority's certificate (PEM): what `sslrootcert` names to trust the server.
    public var authority: String { folder + "/ca.crt" }
    /// An authority that signed nothing here (PEM).
    public var otherAuthority: String { folder + "/other-ca.crt" }
    /// The server's certificate (for `localhost`, or the names it was made for).
    public var serverCertificate: String { folder + "/server.crt" }
    /// The server certificate's key.
    public var serverKey: String { folder + "/server.key" }
    /// A client certificate for the user `collections`.
    public var clientCertificate: String { folder + "/client.crt" }
    /// The client certificate's key.
    public var clientKey: String { folder + "/client.key" }

    /// Makes them in `folder`; the server's certificate names `serverNames` (DNS
    /// names only: a client that checks the name and dials an address is refused).
    public static func make(in folder: String, serverNames: [String]) throws -> TestCertificates {
        let made = TestCertificates(folder: folder)
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        func authority(_ name: String, _ file: String) throws {
            try TestPostgres.run("/usr/bin/openssl", ["req", "-x509"] + ec + ["-keyout", "\(folder)/\(file).key", "-out", "\(folder)/\(file).crt", "-days", "2",
                                 "-subj", "/CN=\(name)", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        }
        func signed(_ name: String, _ file: String, _ extensions: String) throws {
            try TestPostgres.run("/usr/bin/openssl", ["req"] + ec + ["-keyout", "\(folder)/\(file).key", "-out", "\(folder)/\(file).csr", "-subj", "/CN=\(name)"])
            try extensions.write(toFile: "\(folder)/\(file).ext", atomically: true, encoding: .utf8)
            try TestPostgres.run("/usr/bin/openssl", ["x509", "-req", "-in", "\(folder)/\(file).csr", "-CA", made.authority, "-CAkey", "\(folder)/ca.key",
                                 "-CAcreateserial", "-out", "\(folder)/\(file).crt", "-days", "2", "-extfile", "\(folder)/\(file).ext"])
        }
        try authority("collection test authority", "ca")
        try authority("another authority", "other-ca")
        try signed(serverNames.first ?? "localhost", "server", "subjectAltName=\(serverNames.map { "DNS:\($0)" }.joined(separator: ","))\nextendedKeyUsage=serverAuth\n")
        try signed("collections", "client", "extendedKeyUsage=clientAuth\n")
        return made
    }
}

extension TestPostgres {
    /// A server of its own that also listens on 127.0.0.1 (a port the kernel picked
    /// for a moment), with TLS from ``TestCertificates`` made for `localhost`. Over
    /// TCP it takes TLS connections only: to the database `certified` with a client
    /// certificate the authority signed, to any other without one. Its Unix socket
    /// (``url``, ``sql(_:database:)``, ``makeDatabase(_:)``) stays open as before.
    /// Returns the server and its port; ``shutdown()`` removes it and its certificates.
    /// With `tls` false it takes plain connections over TCP instead, and offers no TLS;
    /// with `plainToo` it takes both (TLS ones as above, plain ones to any database
    /// but `certified`).
    public static func launchOnTCP(tls: Bool = true, plainToo: Bool = false) throws -> (server: TestPostgres, port: Int, certificates: TestCertificates) {
        let port = try freePort()
        var made: TestCertificates?
        let server = try initialized(port: port) { folder in
            let certificates = try TestCertificates.make(in: folder, serverNames: ["localhost"])
            try Self.run("/usr/bin/chmod", ["600", certificates.serverKey])   // the server refuses a key others can read
            made = certificates
        }
        do {
            guard let certificates = made else { throw TestPostgresError(message: "no certificates made") }
            try server.start(onTCP: port, tls: tls ? certificates : nil, plainToo: plainToo)
            return (server, port, certificates)
        } catch {
            server.shutdown()   // no folder left behind
            throw error
        }
    }

    /// Starts a server made by ``initialized(port:prepare:)`` listening on
    /// 127.0.0.1 at `port` too, taking TLS connections only with `tls`'s
    /// certificates (plain ones as well with `plainToo`), plain ones without.
    private func start(onTCP port: Int, tls certificates: TestCertificates?, plainToo: Bool) throws {
        let folder = socketDirectory
        let tls = certificates != nil
        // Written in place (the file keeps its owner, the server's user).
        let access = tls ? """
            local all all trust
            hostnossl \(plainToo ? "certified" : "all") all 127.0.0.1/32 reject
            hostssl certified all 127.0.0.1/32 cert
            hostssl all all 127.0.0.1/32 trust
            \(plainToo ? "host all all 127.0.0.1/32 trust" : "")

            """ : "local all all trust\nhost all all 127.0.0.1/32 trust\n"
        try access.write(toFile: dataDirectory + "/pg_hba.conf", atomically: false, encoding: .utf8)
        let ssl = certificates.map { " -c ssl=on -c ssl_cert_file=\($0.serverCertificate) -c ssl_key_file=\($0.serverKey) -c ssl_ca_file=\($0.authority)" } ?? ""
        try pgctl(["-l", "\(folder)/log", "-w", "-o", "-c listen_addresses=127.0.0.1 -k \(folder) -p \(port)" + ssl, "start"])
    }

    /// A TCP port free on 127.0.0.1 now (the kernel picks it; closed again at once).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestPostgresError(message: "socket: error \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestPostgresError(message: "bind: error \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
