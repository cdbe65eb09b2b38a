import CollectionSync
import Foundation
import PostgresNIO

/// Where a PostgreSQL server is, from a URL as libpq writes them:
/// `postgres://user:password@host:port/database`, or a Unix socket's folder as the
/// `host` query item (`postgres:///collections?host=/run/postgresql&user=app`).
///
/// TLS follows libpq's `sslmode` (default `prefer`), with `sslrootcert` (the
/// authorities to trust; `system` or absent: the system's) and `sslcert`/`sslkey` (a
/// client certificate). As with libpq, a Unix socket never uses TLS.
public struct PostgresURL: Sendable, Equatable {
    /// The user to log in as (the URL's, or `user=`, or the process's `USER`).
    public var user: String
    /// The password, if any.
    public var password: String?
    /// The database (default: the user's name, as libpq).
    public var database: String
    /// A host name or address for TCP; nil with ``socketDirectory``.
    public var host: String?
    /// The folder holding the server's Unix socket.
    public var socketDirectory: String?
    /// The port (also the number in the socket's name).
    public var port: Int
    /// How a TCP connection uses TLS.
    public var sslMode: SSLMode
    /// A PEM file of the certificate authorities to trust (nil: the system's).
    public var sslRootCertificate: String?
    /// A PEM client certificate, for servers that ask for one (with ``sslKey``).
    public var sslCertificate: String?
    /// The PEM key of ``sslCertificate``.
    public var sslKey: String?

    /// libpq's `sslmode`.
    public enum SSLMode: String, Sendable, CaseIterable {
        /// No TLS.
        case disable
        /// Without TLS first; with TLS (the certificate not checked) if the server refuses that, as libpq.
        case allow
        /// TLS when the server offers it, the certificate not checked (libpq's default).
        case prefer
        /// TLS or no connection; the certificate checked only when `sslrootcert` names authorities.
        case require
        /// TLS, the certificate signed by a trusted authority.
        case verifyCA = "verify-ca"
        /// TLS, the certificate signed by a trusted authority and naming the host.
        case verifyFull = "verify-full"
    }

    /// Reads `text`, refusing what it cannot honour with a message that says why.
    public init(_ text: String) throws(StoreError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              ["postgres", "postgresql"].contains(scheme.lowercased()) else {
            throw StoreError(.failed, "'\(text.prefix(200))' is not a PostgreSQL URL (postgres://user:password@host:port/database)")
        }
        var items: [String: String] = [:]
        for item in components.queryItems ?? [] { items[item.name] = item.value ?? "" }
        let known = ["host", "user", "password", "port", "dbname", "sslmode", "sslrootcert", "sslcert", "sslkey"]
        for name in items.keys.sorted() where !known.contains(name) {
            throw StoreError(.failed, "the PostgreSQL URL's '\(name)' is not understood (known: \(known.joined(separator: ", ")))")
        }
        let modeText = items["sslmode"] ?? SSLMode.prefer.rawValue
        guard let mode = SSLMode(rawValue: modeText) else {
            throw StoreError(.failed, "sslmode=\(modeText.prefix(40)) is not a mode (known: \(SSLMode.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        sslMode = mode
        sslRootCertificate = items["sslrootcert"].flatMap { $0 == "system" || $0.isEmpty ? nil : $0 }
        sslCertificate = items["sslcert"]
        sslKey = items["sslkey"]
        guard (sslCertificate == nil) == (sslKey == nil) else {
            throw StoreError(.failed, "the PostgreSQL URL names \(sslCertificate == nil ? "sslkey without sslcert" : "sslcert without sslkey"): a client certificate needs both")
        }
        let environment = ProcessInfo.processInfo.environment
        user = items["user"] ?? components.user.flatMap { $0.isEmpty ? nil : $0 }.map { $0.removingPercentEncoding ?? $0 } ?? environment["USER"] ?? "postgres"
        password = items["password"] ?? components.password.map { $0.removingPercentEncoding ?? $0 }
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = items["dbname"] ?? (path.isEmpty ? user : path.removingPercentEncoding ?? path)
        let portText = items["port"] ?? components.port.map(String.init) ?? "5432"
        guard let port = Int(portText), (1...65_535).contains(port) else { throw StoreError(.failed, "the PostgreSQL URL's port '\(portText)' is not a port") }
        self.port = port
        let hostItem = items["host"] ?? components.host.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding }
        if let hostItem, hostItem.hasPrefix("/") {
            socketDirectory = hostItem
            host = nil
        } else if let hostItem {
            host = hostItem
            socketDirectory = nil
        } else {
            host = nil
            socketDirectory = "/var/run/postgresql"
        }
    }

    /// postgres-nio's configurations for it, tried in turn until one connects (two
    /// only with `sslmode=allow` over TCP: without TLS, then with it), their TLS
    /// context made once (the store keeps them for every connection). Throws when a
    /// certificate or key file cannot be read.
    func makeConfigurations() throws(StoreError) -> [PostgresConnection.Configuration] {
        var attempts: [PostgresConnection.Configuration]
        if let socketDirectory {
            attempts = [.init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password, database: database)]
        } else {
            let tls = try makeTLS()
            func over(_ tls: PostgresConnection.Configuration.TLS) -> PostgresConnection.Configuration {
                .init(host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: tls)
            }
            attempts = sslMode == .allow ? [over(.disable), over(tls)] : [over(tls)]
        }
        for i in attempts.indices { attempts[i].options.connectTimeout = .seconds(3) }
        return attempts
    }

    /// The TLS of a TCP connection, as `sslmode` and the certificate files say.
    private func makeTLS() throws(StoreError) -> PostgresConnection.Configuration.TLS {
        if sslMode == .disable { return .disable }
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable, .allow, .prefer:
            tls.certificateVerification = .none
        case .require:
            tls.certificateVerification = sslRootCertificate == nil ? .none : .noHostnameVerification
        case .verifyCA:
            tls.certificateVerification = .noHostnameVerification
        case .verifyFull:
            tls.certificateVerification = .fullVerification
        }
        var file = ""
        do {
            if let sslRootCertificate {
                file = sslRootCertificate
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(sslRootCertificate))
            }
            if let sslCertificate, let sslKey {
                file = sslCertificate
                tls.certificateChain = try NIOSSLCertificate.fromPEMFile(sslCertificate).map { .certificate($0) }
                file = sslKey
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(file: sslKey, format: .pem))
            }
            file = ""   // the files were read: a failure now is of the settings together (a key that fits no certificate)
            let context = try NIOSSLContext(configuration: tls)
            // allow's TLS is its second attempt, made when the server refused one without.
            return sslMode == .prefer ? .prefer(context) : .require(context)
        } catch {
            throw StoreError(.failed, "PostgreSQL TLS: cannot use \(file.isEmpty ? "the TLS settings" : "'\(file)'"): \(error)")
        }
    }

    /// What a failed TLS handshake means, in the URL's terms (nil: not a TLS failure).
    func tlsProblem(_ error: any Error) -> String? {
        guard let psql = error as? PSQLError else { return nil }
        if psql.code == .sslUnsupported {
            if sslMode == .allow { return "the server offers no TLS" }
            return "TLS: the server does not offer it (sslmode=\(sslMode.rawValue) requires it; prefer goes on without, allow tries without first)"
        }
        guard let underlying = psql.underlying else { return nil }
        let text = "\(underlying)"
        let authorities = sslRootCertificate.map { "the authorities in '\($0)'" } ?? "the system's authorities (name others with sslrootcert)"
        if text.contains("failedToValidateHostname") {
            return "TLS: the server's certificate does not name '\(host ?? "localhost")' (sslmode=verify-full checks the name; verify-ca does not)"
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") {
            return "TLS: the server's certificate is not signed by \(authorities)"
        }
        if text.contains("handshakeFailed") { return "TLS handshake failed: \(text.prefix(300))" }
        return nil
    }

    /// Where it is, for logs (no password).
    public var description: String {
        let tls = socketDirectory == nil && sslMode != .prefer ? " (sslmode=\(sslMode.rawValue))" : ""
        return "\(user)@\(socketDirectory.map { "\($0)/.s.PGSQL.\(port)" } ?? "\(host ?? "localhost"):\(port)")/\(database)\(tls)"
    }
}
