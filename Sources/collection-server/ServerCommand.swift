import ArgumentParser
import CollectionProtocol
import CollectionSync
import Dispatch
import Foundation
import Logging
import Synchronization
import WebSocketTransport

@main
struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collection-server",
        abstract: "Serves a live, shared collection view to browsers over WebSockets.")

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 lets the kernel pick.")
    var port = 8080

    @Option(name: .customLong("public"), help: "Directory of static files (default: the repo's Public/).")
    var publicDirectory: String?

    @Option(help: "PEM certificate; with --tls-key, serve https and wss.")
    var tlsCert: String?

    @Option(help: "PEM private key for --tls-cert.")
    var tlsKey: String?

    @Option(help: "Demo collection: photos (4 albums, 2,200 photos), small (3 albums of 12) or large (100,000 photos).")
    var demo = "photos"

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel = "info"

    @Option(help: "WebSocket connections allowed at once; one more is closed with 1008.")
    var maxConnections = 1_024

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

    @Flag(help: .hidden)
    var echo = false

    @Option(help: .hidden)
    var maxBacklogBytes = 8 * 1024 * 1024

    @Flag(help: .hidden)
    var exitOnStdinEOF = false

    func validate() throws {
        guard ["photos", "small", "large"].contains(demo) else { throw ValidationError("unknown demo '\(demo)': use photos, small or large") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level '\(logLevel)'") }
        guard (tlsCert == nil) == (tlsKey == nil) else { throw ValidationError("--tls-cert and --tls-key go together") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard maxConnections > 0, rateLimit > 0, replayLog >= 0, pingInterval >= 0, pingTimeout > 0, outputRate > 0, timeShare > 0 else { throw ValidationError("limits must be positive") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)   // a peer that vanishes mid-write is an error code, not a crash
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "collection-server")
        guard let publicDir = publicDirectory ?? Self.findPublicDirectory() else {
            throw ValidationError("cannot find Public/; pass --public DIR")
        }
        var config = WebSocketServerConfiguration()
        config.host = host
        config.port = port
        config.publicDirectory = URL(fileURLWithPath: publicDir).standardizedFileURL.path
        config.tlsCertificate = tlsCert
        config.tlsKey = tlsKey
        config.subprotocol = subprotocolName
        config.maxMessageSize = maxClientMessageBytes
        config.maxConnections = maxConnections
        config.maxQueuedBytes = maxBacklogBytes
        config.pingInterval = pingInterval
        config.pingTimeout = pingTimeout
        if echo { config.extraWebSocketPath = "/echo" }

        let demo = PhotoLibraryDemo()
        var limits = HubLimits()
        limits.messagesPerSecond = rateLimit
        limits.messageBurst = rateLimit * 2
        limits.outputBytesPerSecond = outputRate * 1_048_576
        limits.outputBurst = outputRate * 2 * 1_048_576
        limits.serverTimeShare = timeShare
        limits.serverTimeBurst = timeShare * 2
        limits.replayLogCapacity = replayLog
        // The photo library (the default collection) and the board's two columns.
        let photos = CollectionHub(model: PhotoLibraryDemo.makeModel(self.demo), factory: demo, policy: demo, limits: limits, name: "photos")
        var boardLimits = limits
        boardLimits.maxItems = 10_000
        let hubs = [photos] + BoardDemo.makeHubs(limits: boardLimits)
        for hub in hubs { hub.dropDelegate = ModelDropDelegate(foldersTakeDrops: hub !== photos) }
        let wiring = Wiring(group: CollectionHubGroup(hubs), logger: logger)
        let server = WebSocketServer(configuration: config, logger: logger, handler: wiring.handle)
        wiring.attach(server)
        let actualPort = try server.start()
        let scheme = config.usesTLS ? "https" : "http"
        printLine("listening on \(scheme)://\(host):\(actualPort)/")
        logger.info("serving \(config.publicDirectory ?? "") with demo '\(self.demo)'")

        waitForStop(exitOnStdinEOF: exitOnStdinEOF)
        logger.info("stopping")
        server.stop()
        printLine("stopped")
    }

    /// Public/ next to the working directory, or above the executable (…/.build/debug/).
    static func findPublicDirectory() -> String? {
        let fm = FileManager.default
        var candidates = [URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("Public")]
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<6 {
            candidates.append(dir.appendingPathComponent("Public"))
            dir = dir.deletingLastPathComponent()
        }
        return candidates.first { fm.fileExists(atPath: $0.appendingPathComponent("index.html").path) }?.path
    }
}

/// Writes a line to standard output at once; a closed stdout is not an error.
func printLine(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}

/// Blocks until SIGINT or SIGTERM (or stdin closes, when asked).
func waitForStop(exitOnStdinEOF: Bool) {
    let done = DispatchSemaphore(value: 0)
    var sources: [DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
        source.setEventHandler { done.signal() }
        source.resume()
        sources.append(source)
    }
    if exitOnStdinEOF {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while read(0, &buffer, buffer.count) > 0 {}
            done.signal()
        }
    }
    done.wait()
    sources.forEach { $0.cancel() }
}
