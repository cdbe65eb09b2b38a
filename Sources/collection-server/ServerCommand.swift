import Foundation
import ArgumentParser
import BoardExample
import CollectionServerPostgres
import PhotoLibraryExample
import RetroExample
import SignInExample
import StorefrontExample
import TicketBoardExample

/// The examples' launcher: serves the photo library, the board and the ticket
/// board, built on nothing but `CollectionServer`'s public API.
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collection-server",
        abstract: "Serves a live, shared collection view to browsers over WebSockets.")

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 lets the kernel pick.")
    var port = 8080

    @Option(name: .customLong("public"), help: "Directory of the pages (default: the repo's Examples/Public/).")
    var publicDirectory: String?

    @Option(help: "PEM certificate; with --tls-key, serve https and wss.")
    var tlsCert: String?

    @Option(help: "PEM private key for --tls-cert.")
    var tlsKey: String?

    @Option(help: "Photo library: photos (4 albums, 2,200 photos), small (3 albums of 12) or large (100,000 photos).")
    var demo = "photos"

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(help: "WebSocket connections allowed at once; one more is closed with 1008.")
    var maxConnections = 1_024

    @Option(help: "WebSocket connections allowed from one address; one more is closed with 1008.")
    var maxConnectionsPerAddress = 256

    @Option(help: "Connections that have not said hello yet, in all; past it the oldest is closed to make room.")
    var maxPending = 128

    @Option(help: "Connections from one address that have not said hello yet; one more is closed with 1008.")
    var maxPendingPerAddress = 16

    @Option(help: "MiB queued for all connections together; past it the largest backlogs are cut first (1008).")
    var maxQueuedTotal = 256

    @Option(help: "MiB queued for the connections of one address together; past it its largest backlogs are cut first.")
    var maxQueuedPerAddress = 64

    @Option(help: "Messages a second each client may send (bursts of twice that).")
    var rateLimit = 200.0

    @Option(help: "MiB a second the server may send because of one client's messages (bursts of twice that).")
    var outputRate = 16.0

    @Option(help: "Share of the server's time one client's messages may take (0-1; bursts of twice that many seconds).")
    var timeShare = 0.25

    @Option(help: "Batches kept for clients that reconnect (older gaps get a full reload).")
    var replayLog = 1_000

    @Option(help: "Seconds a connection may be idle before it is pinged (0: no heartbeat).")
    var pingInterval = 30

    @Option(help: "Seconds a pinged connection has to answer before it is closed.")
    var pingTimeout = 60

    @Option(help: "Seconds a connection may stay open without saying hello (0: no limit).")
    var helloTimeout = 10.0

    @Option(name: .customLong("allow-origin"), help: "An origin (scheme://host[:port]) whose pages may connect besides the server's own; repeatable.")
    var allowOrigin: [String] = []

    @Option(help: "Folder of the database that keeps the collections (made when missing).")
    var data = "data"

    @Flag(help: "Keep nothing: every start begins anew (--data is ignored).")
    var inMemory = false

    @Option(help: "Share the collections with other servers through this PostgreSQL database (postgres://user:password@host:port/db?sslmode=verify-full&sslrootcert=ca.pem, or postgres:///db?host=/socket/folder); --data is ignored.")
    var postgres: String?

    @Option(help: "This server's name in logs and among the servers sharing --postgres (default: a random one).")
    var nodeId: String?

    @Flag(inversion: .prefixedNo, help: "Commit the edits of one turn of the service loop in one transaction.")
    var groupCommit = true

    @Option(help: "MiB the database may grow to; past that, edits are refused (0: no cap).")
    var maxDataSize = 0

    @Option(help: "full: each commit is synced to disk before edits are acknowledged (survives a power cut); normal: written, not synced (survives a crash of the server only).")
    var sync = "full"

    @Option(help: "File holding the secret (32 bytes or more) that signs tokens; else $COLLECTION_TOKEN_SECRET; neither: no tokens.")
    var tokenSecretFile: String?

    @Flag(help: "Refuse viewers without a valid token (401 before the upgrade); by default they are anonymous and may view and edit the examples.")
    var requireToken = false

    @Option(help: "Print a token for this user id (signed with the secret) and exit.")
    var issueToken: String?

    @Option(help: "With --issue-token: the name others see.")
    var tokenName: String?

    @Option(help: "With --issue-token: roles, comma-separated (the examples let 'editor' edit).")
    var tokenRoles = ""

    @Option(help: "With --issue-token: seconds until it expires.")
    var tokenTtl = 3_600.0

    @Option(help: "Longest life a token may have, in seconds (from its iat); longer ones are refused.")
    var tokenMaxLifetime = 30.0 * 24 * 3600

    @Option(help: "The audience tokens must name in 'aud' (and --issue-token writes); none: not checked.")
    var tokenAudience: String?

    @Option(help: "The issuer tokens must name in 'iss' (and --issue-token writes); none: not checked.")
    var tokenIssuer: String?

    @Flag(help: .hidden)
    var echo = false

    @Option(help: .hidden)
    var maxBacklogBytes = 8 * 1024 * 1024

    @Flag(help: .hidden)
    var exitOnStdinEOF = false

    @Option(help: "Seconds between the ticket board's new tickets (0: none).")
    var ticketInterval = 5.0

    func validate() throws {
        guard PhotoLibraryExample.sizes.contains(demo) else { throw ValidationError("unknown demo '\(demo)': use photos, small or large") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level '\(logLevel)'") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        for origin in allowOrigin where CollectionServer.isValidOrigin(origin) == false {
            throw ValidationError("--allow-origin '\(origin)' is not an origin: write scheme://host[:port], e.g. https://app.example.com")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maxDataSize >= 0 else { throw ValidationError("--max-data-size must be 0 or more") }
        guard SQLiteCollectionStore.Options.Synchronous(rawValue: sync) != nil else { throw ValidationError("--sync is full or normal") }
        guard maxConnections > 0, maxConnectionsPerAddress > 0, maxPending > 0, maxPendingPerAddress > 0, maxQueuedTotal > 0, maxQueuedPerAddress > 0, rateLimit > 0, replayLog >= 0, pingInterval >= 0, pingTimeout > 0, outputRate > 0, timeShare > 0, helloTimeout >= 0 else { throw ValidationError("limits must be positive") }
    }

    /// The token signer: from --token-secret-file, else $COLLECTION_TOKEN_SECRET,
    /// with the longest lifetime, audience and issuer given.
    func tokenSigner() throws -> TokenSigner? {
        var signer: TokenSigner?
        do throws(TokenError) {
            if let tokenSecretFile {
                signer = try TokenSigner.secret(fromFile: tokenSecretFile)
            } else {
                signer = try TokenSigner.secret(fromEnvironment: "COLLECTION_TOKEN_SECRET")
            }
        } catch {
            throw ValidationError(error.message)
        }
        guard tokenMaxLifetime > 0 else { throw ValidationError("--token-max-lifetime must be positive") }
        signer?.maxLifetime = tokenMaxLifetime
        signer?.audience = tokenAudience
        signer?.issuer = tokenIssuer
        return signer
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)   // a peer that vanishes mid-write is an error code, not a crash
        let tokens = try tokenSigner()
        if let user = issueToken {
            guard let tokens else { throw ValidationError("--issue-token needs a secret: --token-secret-file or $COLLECTION_TOKEN_SECRET") }
            guard tokenTtl <= tokenMaxLifetime else {
                throw ValidationError("--token-ttl \(Int(tokenTtl)) is longer than --token-max-lifetime \(Int(tokenMaxLifetime)): the server would refuse the token")
            }
            let roles = Set(tokenRoles.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
            printLine(tokens.token(for: Identity(id: user, name: tokenName ?? user, roles: roles), expiresAt: Date().addingTimeInterval(tokenTtl)))
            return
        }
        if requireToken && tokens == nil {
            throw ValidationError("--require-token needs a secret to check tokens with: --token-secret-file or $COLLECTION_TOKEN_SECRET")
        }
        guard let pages = publicDirectory ?? Self.findPublicDirectory() else {
            throw ValidationError("cannot find Examples/Public/; pass --public DIR")
        }
        var config = CollectionServer.Configuration(host: host, port: port, tlsCertificate: tlsCert, tlsKey: tlsKey,
                                                    publicDirectory: pages, logLevel: Logger.Level(rawValue: logLevel) ?? .info)
        config.maxConnections = maxConnections
        config.maxConnectionsPerAddress = maxConnectionsPerAddress
        config.maxQueuedBytes = maxBacklogBytes
        config.maxQueuedBytesTotal = maxQueuedTotal * 1_048_576
        config.maxQueuedBytesPerAddress = maxQueuedPerAddress * 1_048_576
        config.maxPendingConnections = maxPending
        config.maxPendingPerAddress = maxPendingPerAddress
        config.pingInterval = pingInterval
        config.pingTimeout = pingTimeout
        config.helloTimeout = helloTimeout
        config.limits.messagesPerSecond = rateLimit
        config.limits.messageBurst = rateLimit * 2
        config.limits.outputBytesPerSecond = outputRate * 1_048_576
        config.limits.outputBurst = outputRate * 2 * 1_048_576
        config.limits.serverTimeShare = timeShare
        config.limits.serverTimeBurst = timeShare * 2
        config.limits.replayLogCapacity = replayLog
        if echo { config.echoPath = "/echo" }
        config.allowedOrigins = allowOrigin
        var storeOptions = SQLiteCollectionStore.Options()
        if maxDataSize > 0 { storeOptions.maximumSize = maxDataSize * 1_048_576 }
        storeOptions.synchronous = SQLiteCollectionStore.Options.Synchronous(rawValue: sync) ?? .full
        if let postgres {
            config.storage = .postgres(url: postgres, nodeID: nodeId)
        } else {
            config.storage = inMemory ? .inMemory : .sqlite(directory: data, options: storeOptions)
        }
        config.groupCommit = groupCommit
        config.tokens = tokens
        config.requireToken = requireToken

        let server = CollectionServer(configuration: config)
        PhotoLibraryExample.add(to: server, size: demo)
        BoardExample.add(to: server)
        let tickets = try await TicketBoardExample.add(to: server)
        if ticketInterval > 0 { tickets.startAddingTickets(every: ticketInterval) }
        try await StorefrontExample.add(to: server)
        try await SettingsExample.add(to: server)
        SignInExample.add(to: server)
        // The retro board keeps its cards in a file of its own, beside the server's store.
        var retroFile: URL?
        if !inMemory && postgres == nil {
            // (A folder that cannot be made is the store's to report, as it starts.)
            try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
            retroFile = URL(fileURLWithPath: data).appendingPathComponent("retro.json")
        }
        try await RetroExample.add(to: server, file: retroFile)
        if exitOnStdinEOF {
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 256)
                while read(0, &buffer, buffer.count) > 0 {}
                server.stop()
            }
        }
        do {
            try await server.run { url in printLine("listening on \(url)") }
        } catch let error as StoreError {
            // A database that cannot be used stops the server, saying why; it is never wiped.
            FileHandle.standardError.write(Data("collection-server: \(error.message)\n".utf8))
            throw ExitCode(2)
        }
        printLine("stopped")
    }

    /// Examples/Public/ under the working directory, or above the executable (…/.build/debug/).
    static func findPublicDirectory() -> String? {
        let fm = FileManager.default
        var candidates = [URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("Examples/Public")]
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("Examples/Public"))
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first { fm.fileExists(atPath: $0.appendingPathComponent("index.html").path) }?.path
    }
}

/// Writes a line to standard output at once; a closed stdout is not an error.
func printLine(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}
