import CLibWebSockets
import CPrefetch
import CWebSocketShim
import Foundation
import Logging
import Synchronization
import Locking

/// The service-thread side of ``WebSocketServer``. Everything but `submit`,
/// `stop` and `connectionCount` runs on the service thread only, which is what
/// makes the unchecked Sendable conformance sound.
final class ServerCore: @unchecked Sendable {
    let configuration: WebSocketServerConfiguration
    let logger: Logger
    let handler: @Sendable (WebSocketEvent) -> Void
    let loop = ServiceLoop<TransportCommand>(name: "lws-service")
    let connectionCount = Atomic<Int>(0)
    /// Bytes waiting to be sent to every connection, and the most since the start
    /// (read on any thread).
    let queuedBytes = Atomic<Int>(0)
    let peakQueuedBytes = Atomic<Int>(0)
    let port = Atomic<Int>(0)
    /// What the service thread waits on, once started.
    private(set) var eventLoop: EventLoop?
    private var server: OpaquePointer?
    /// Requests, upgrades' checks, routes and files (HTTPServing.swift).
    let http: HTTPServing
    private var connections: [ConnectionID: ServerConnection] = [:]
    /// Where each connection's record and lws state lie, for ``prefetch(_:)``: read
    /// without retaining the record, as looking it up in `connections` does (a
    /// retain writes its count, and waited for the cold line the prefetch was to
    /// bring in). Kept beside `connections`; an address is only ever prefetched,
    /// which cannot fault, never read.
    private var prefetchTargets: [ConnectionID: (record: UnsafeRawPointer, wsi: UnsafeRawPointer)] = [:]
    /// Who holds a connection slot, and which have not been confirmed yet.
    private var slots: ConnectionSlots
    /// Bytes waiting to be sent, under caps per address and in all.
    private var backlog: BacklogLedger
    /// The most bytes that waited since memory was last given back to the system.
    private var backlogPeak = 0
    /// Asks the service thread to ``sweep()`` four times a second.
    private let sweeper = Locked<DispatchSourceTimer?>(nil)
    /// Connections refused for the connection limit, waiting to send their close frame.
    private var overflow: [ObjectIdentifier: ServerConnection] = [:]
    private var nextID: UInt64 = 0
    /// The connection whose message the handler is being told of (its frames are
    /// being parsed: what it is sent then waits for lws's writable turn, which puts
    /// a pong or a close reply lws owes it first).
    private var receiving: ConnectionID?
    /// Set by a graceful shutdown: the close every connection gets, new ones at once.
    private var shuttingDown: (CloseCode, String)?
    /// Whether an event was reported in the current turn of the loop.
    private var reportedThisTurn = false
    private var writeBuffer: [UInt8]
    private let pre = Int(cws_pre())

    init(configuration: WebSocketServerConfiguration, logger: Logger, handler: @escaping @Sendable (WebSocketEvent) -> Void) {
        self.configuration = configuration
        self.logger = logger
        self.handler = handler
        http = HTTPServing(configuration: configuration, logger: logger, loop: loop)
        var limits = ConnectionSlots.Limits()
        limits.maxConnections = configuration.maxConnections
        limits.maxPerAddress = configuration.maxConnectionsPerAddress
        limits.maxPending = configuration.maxPendingConnections
        limits.maxPendingPerAddress = configuration.maxPendingPerAddress
        limits.pendingTimeout = configuration.pendingTimeout
        limits.pendingTimeoutUnderPressure = configuration.pendingTimeoutUnderPressure
        slots = ConnectionSlots(limits: limits)
        backlog = BacklogLedger(maxTotal: configuration.maxQueuedBytesTotal, maxPerAddress: configuration.maxQueuedBytesPerAddress)
        writeBuffer = [UInt8](repeating: 0, count: Int(cws_pre()) + configuration.fragmentSize)
    }

    func start() throws -> Int {
        lws_set_log_level(logger.logLevel <= .debug ? Int32(LLL_ERR | LLL_WARN | LLL_NOTICE) : Int32(LLL_ERR), nil)
        let c = configuration
        if let cert = c.tlsCertificate, let key = c.tlsKey {
            var error = [CChar](repeating: 0, count: 512)
            if cws_check_tls_files(cert, key, &error, Int32(error.count)) != 0 {
                throw TransportError.cannotCreateContext(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        let raw = Unmanaged.passUnretained(self).toOpaque()
        let created: OpaquePointer? = c.host.withCString { host in
            withOptionalCString(c.tlsCertificate) { cert in
                withOptionalCString(c.tlsKey) { key in
                    c.subprotocol.withCString { proto in
                        var config = cws_server_config(
                            host: host, port: Int32(c.port),
                            tls_cert: cert, tls_key: key, ws_protocol: proto,
                            callback: serverCallback,
                            http_callback: httpCallback, user: raw, rx_chunk: 4096,
                            max_header_bytes: UInt16(clamping: c.headerSpace),
                            ping_seconds: UInt16(clamping: c.pingInterval), hangup_seconds: UInt16(clamping: c.pingInterval + c.pingTimeout))
                        return cws_server_create(&config)
                    }
                }
            }
        }
        guard let created else {
            throw TransportError.cannotCreateContext("could not listen on \(c.host):\(c.port) (is the address this machine's, and the port free?)")
        }
        server = created
        let port = Int(cws_server_port(created))
        eventLoop = cws_server_uses_epoll(created) != 0 ? .epoll : .poll
        self.port.store(port, ordering: .relaxed)
        loop.start(context: cws_server_context(created), turn: { [self] in
            guard let server else { return -1 }
            return cws_server_service(server)
        }, afterTurn: { [self] in
            guard reportedThisTurn else { return }
            reportedThisTurn = false
            handler(.turnEnded)
        }) { [self] in
            cws_server_destroy(server)
            server = nil
        }
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + 0.25, repeating: 0.25, leeway: .milliseconds(50))
        timer.setEventHandler { [loop] in loop.post(.sweep) }
        timer.resume()
        sweeper.withLock { $0 = timer }
        return port
    }

    func submit(_ command: TransportCommand) {
        if loop.isServiceThread {
            // What other threads posted was submitted earlier: it goes first, or a
            // batch sent from another thread would be overtaken by the next one.
            for earlier in loop.drain() { perform(earlier) }
            perform(command)
        } else {
            loop.post(command)
        }
    }

    func stop() {
        sweeper.withLock { $0?.cancel(); $0 = nil }
        loop.stop()
    }

    /// Bytes of lws's connection state that writing a message reads (`lws_write`,
    /// `lws_partial_buffered`: the struct's first 0x340 bytes in 4.1.6).
    static let wsiPrefetchBytes = 0x340

    /// Fetches into the cache what writing a message to `id` reads: the connection's
    /// record and lws's state of it. Service thread only (elsewhere it does nothing).
    func prefetch(_ id: ConnectionID) {
        guard loop.isServiceThread, let (record, wsi) = prefetchTargets[id] else { return }
        cpf_prefetch(record)
        cpf_prefetch(record + 64)
        var offset = 0
        while offset < Self.wsiPrefetchBytes {
            cpf_prefetch(wsi + offset)
            offset += 64
        }
    }

    // MARK: service thread

    private func perform(_ command: TransportCommand) {
        switch command {
        case let .send(id, bytes, binary):
            guard let connection = connections[id], connection.pendingClose == nil else { return }
            // Nothing waits before it and it is one fragment: written now. (Waiting for
            // the socket to be reported writable, as a queued message does, costs a
            // turn of the loop's poll over every connection, and the socket almost
            // always takes it; when it does not, lws keeps the rest and the next
            // messages queue behind it.) Not to the connection whose frames are being
            // read, nor to one whose peer closed: lws may owe it a pong or a close
            // reply, which its writable turn sends first.
            if connection.outbound.isEmpty, bytes.count <= connection.outbound.fragmentSize, id != receiving, !connection.peerClosed,
               lws_partial_buffered(connection.wsi) == 0 {
                if !write(bytes.count, binary: binary, isStart: true, isEnd: true, to: connection.wsi, filling: bytes.copy(to:)) {
                    logger.warning("closing \(id): write failed")
                    connection.abandon(.internalError, "write failed")
                    cws_kill(connection.wsi)
                }
                return
            }
            guard connection.outbound.enqueue(bytes.joined(), binary: binary) else {
                // A reader that stopped reading: it cannot take a close frame either, so
                // the connection goes at once and its queue is freed now.
                logger.warning("closing \(id): outbound backlog over \(connection.outbound.maxQueuedBytes) bytes")
                cutOff(connection, "backlog too large")
                return
            }
            // Under the caps of its address and of all: the largest backlogs go first.
            let cut = backlog.add(bytes.count, to: id, from: connection.address)
            backlogPeak = max(backlogPeak, backlog.total)
            queuedBytes.store(backlog.total, ordering: .relaxed)
            if backlog.total > peakQueuedBytes.load(ordering: .relaxed) { peakQueuedBytes.store(backlog.total, ordering: .relaxed) }
            for victim in cut {
                guard let other = connections[victim] else { continue }
                logger.warning("closing \(victim): the server's send queues are full (\(backlog.total) bytes waiting, \(backlog.backlog(ofAddress: other.address)) for its address)")
                cutOff(other, "backlog too large: the server's send queues are full")
            }
            if !cut.contains(id) { lws_callback_on_writable(connection.wsi) }
        case let .close(id, code, reason):
            guard let connection = connections[id], connection.pendingClose == nil else { return }
            connection.pendingClose = (code, reason)
            lws_callback_on_writable(connection.wsi)
        case let .shutdown(code, reason):
            shuttingDown = (code, reason)
            for connection in connections.values where connection.pendingClose == nil {
                connection.pendingClose = (code, reason)
                lws_callback_on_writable(connection.wsi)
            }
        case .confirm(let id):
            slots.confirm(id)
        case .sweep:
            sweep()
        case .read:
            break
        case let .answer(id, response):
            http.routeAnswered(id, response)
        }
    }

    /// Cuts a connection off at once (it is not reading, so waiting to write a close
    /// frame would keep its queue alive): what waited for it is freed now.
    private func cutOff(_ connection: ServerConnection, _ reason: String) {
        connection.abandon(.policyViolation, reason)
        backlog.remove(connection.id)
        cws_kill(connection.wsi)
    }

    /// Closes connections unconfirmed past their time (1008), and gives memory back
    /// to the system once a burst of backlogs has drained (freed queues otherwise
    /// stay in the allocator's heap: 250 viewers that never read left 2 GB behind).
    private func sweep() {
        let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        let timeout = slots.currentTimeout ?? 0
        http.expireRoutes(now: now)
        for id in slots.expired(at: now) {
            guard let connection = connections[id], connection.pendingClose == nil else { continue }
            logger.warning("closing \(id): no hello within \(Self.seconds(timeout)) s")
            connection.pendingClose = (.policyViolation, "no hello within \(Self.seconds(timeout)) s")
            lws_callback_on_writable(connection.wsi)
        }
        if backlogPeak >= 32 * 1024 * 1024, backlog.total <= backlogPeak / 4 {
            backlogPeak = backlog.total
            DispatchQueue.global(qos: .utility).async { cws_release_free_memory() }
        }
    }

    /// A number of seconds as people write it (10, 2, 0.5).
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Reports an event to the handler (service thread).
    private func report(_ event: WebSocketEvent) {
        reportedThisTurn = true
        handler(event)
    }

    func callback(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            let path = LWSRequest.path(wsi)
            return path == configuration.webSocketPath || path == configuration.extraWebSocketPath ? 0 : 1
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            // Bound to our protocol (the vhost's default) by then, not to the HTTP one.
            return http.confirmUpgrade(wsi, port: port.load(ordering: .relaxed))
        case LWS_CALLBACK_ESTABLISHED:
            return established(wsi, user)
        case LWS_CALLBACK_RECEIVE:
            return receive(wsi, user, input, length)
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return writeable(wsi, user)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let id = connectionID(user) { connections[id]?.peerClosed = true }
            return 0
        case LWS_CALLBACK_CLOSED:
            if let refused = overflow.values.first(where: { $0.wsi == wsi }) { overflow[ObjectIdentifier(refused)] = nil }
            if let id = connectionID(user), connections.removeValue(forKey: id) != nil {
                prefetchTargets[id] = nil
                slots.remove(id)
                backlog.remove(id)
                connectionCount.subtract(1, ordering: .relaxed)
                report(.closed(id))
            }
            return 0
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            for command in loop.drain() { perform(command) }
            return 0
        default:
            return 0
        }
    }

    private func connectionID(_ user: UnsafeMutableRawPointer?) -> ConnectionID? {
        guard let user else { return nil }
        let raw = user.load(as: UInt64.self)
        return raw == 0 ? nil : ConnectionID(rawValue: raw)
    }

    private func established(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        guard let user else { return -1 }
        nextID += 1
        let id = ConnectionID(rawValue: nextID)
        user.storeBytes(of: nextID, as: UInt64.self)
        let subprotocol = String(cString: cws_protocol_name(wsi))
        let path = LWSRequest.path(wsi)
        let main = path == configuration.webSocketPath
        let limit = main ? configuration.maxMessageSize : configuration.extraMaxMessageSize
        // The extra path (a test echo) queues whole messages of its own, larger size.
        let backlog = main ? configuration.maxQueuedBytes : max(configuration.maxQueuedBytes, 2 * configuration.extraMaxMessageSize)
        let connection = ServerConnection(
            id: id, wsi: wsi, inbound: InboundAssembler(limit: limit),
            outbound: OutboundQueue(fragmentSize: configuration.fragmentSize, maxQueuedBytes: backlog),
            flood: FloodGuard(framesPerSecond: main ? configuration.framesPerSecond : .infinity, bytesPerSecond: main ? configuration.bytesPerSecond : .infinity))
        let address = LWSRequest.peerAddress(wsi)
        let credential = http.takeCredential(wsi)
        var refusal: (CloseCode, String)? = shuttingDown.map { ($0.0, $0.1) }
        if refusal == nil {
            switch slots.admit(id, from: address, at: Double(DispatchTime.now().uptimeNanoseconds) / 1e9) {
            case .refuse(let why):
                refusal = (.policyViolation, why)
            case .accept(let evicting):
                // The oldest connections that said nothing make room (1008).
                for old in evicting {
                    guard let connection = connections[old], connection.pendingClose == nil else { continue }
                    logger.warning("closing \(old): the server is full and it has not said hello")
                    connection.pendingClose = (.policyViolation, "the server is full: say hello sooner")
                    lws_callback_on_writable(connection.wsi)
                }
                if !main || !configuration.confirmsConnections { slots.confirm(id) }
            }
        }
        if let (code, refusal) = refusal {
            // Over a limit: say so with a close code, and never tell the handler.
            logger.warning("refusing \(id) from \(address): \(refusal) (\(slots.count) connections, \(slots.pendingCount) without hello)")
            user.storeBytes(of: 0, as: UInt64.self)
            overflow[ObjectIdentifier(connection)] = connection
            // 1008, not 1013: libwebsockets 4.1.6 clients (and other strict ones)
            // treat 1012-1014 as invalid and fail the connection with 1002.
            connection.pendingClose = (code, refusal)
            lws_callback_on_writable(wsi)
            return 0
        }
        connection.address = address
        connections[id] = connection
        prefetchTargets[id] = (UnsafeRawPointer(Unmanaged.passUnretained(connection).toOpaque()), UnsafeRawPointer(wsi))
        connectionCount.add(1, ordering: .relaxed)
        report(.opened(id, subprotocol: subprotocol, path: path, credential: credential))
        return 0
    }

    private func receive(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let id = connectionID(user), let connection = connections[id] else { return connectionID(user) == nil ? 0 : -1 }
        let isFinal = lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0
        let binary = lws_frame_is_binary(wsi) != 0
        let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
        guard connection.pendingClose == nil else { return 0 }   // closing: the rest is not read
        guard connection.flood.admit(bytes: chunk.count, at: Double(DispatchTime.now().uptimeNanoseconds) / 1e9) else {
            // Stop reading, drop what waits, and close with 1008 at the next writable moment.
            logger.warning("closing \(id): more than \(Int(configuration.framesPerSecond)) frames or \(Int(configuration.bytesPerSecond)) bytes a second")
            connection.abandon(.policyViolation, "flooding")
            backlog.remove(id)
            lws_rx_flow_control(wsi, 0)
            lws_callback_on_writable(wsi)
            return 0
        }
        switch connection.inbound.append(chunk, binary: binary, isFinal: isFinal) {
        case .incomplete:
            return 0
        case let .message(bytes, binary):
            receiving = id
            report(.message(id, bytes, binary: binary))
            receiving = nil
            return 0
        case let .tooLarge(limit):
            logger.info("closing \(id): message over \(limit) bytes")
            cws_close_reason(wsi, Int32(CloseCode.messageTooBig.rawValue), "message over \(limit) bytes")
            return -1
        }
    }

    private func writeable(_ wsi: OpaquePointer, _ user: UnsafeMutableRawPointer?) -> Int32 {
        if connectionID(user) == nil, let refused = overflow.values.first(where: { $0.wsi == wsi }), let (code, reason) = refused.pendingClose {
            overflow[ObjectIdentifier(refused)] = nil
            cws_close_reason(wsi, Int32(code.rawValue), reason)
            return -1
        }
        guard let id = connectionID(user), let connection = connections[id] else { return -1 }
        guard let fragment = connection.outbound.nextFragment() else {
            backlog.remove(id)
            if let (code, reason) = connection.pendingClose {
                cws_close_reason(wsi, Int32(code.rawValue), reason)
                return -1
            }
            return 0
        }
        backlog.sent(fragment.bytes.count, by: id)
        queuedBytes.store(backlog.total, ordering: .relaxed)
        if !write(fragment, to: wsi) {
            logger.warning("closing \(id): short write")
            return -1
        }
        if !connection.outbound.isEmpty || connection.pendingClose != nil {
            lws_callback_on_writable(wsi)
        }
        return 0
    }

    /// Writes one fragment (copied behind the `LWS_PRE` bytes lws writes its frame
    /// header into); false when lws took less than all of it (an error: close).
    private func write(_ fragment: OutboundFragment, to wsi: OpaquePointer) -> Bool {
        write(fragment.bytes.count, binary: fragment.binary, isStart: fragment.isStart, isEnd: fragment.isEnd, to: wsi) { base in
            fragment.bytes.withUnsafeBufferPointer { source in
                if let from = source.baseAddress { base.update(from: from, count: source.count) }
            }
        }
    }

    /// Writes `count` bytes (at most a fragment) that `fill` puts behind the `LWS_PRE`
    /// bytes lws writes its frame header into; false when lws took less than all of them.
    private func write(_ count: Int, binary: Bool, isStart: Bool, isEnd: Bool, to wsi: OpaquePointer,
                       filling fill: (UnsafeMutablePointer<UInt8>) -> Void) -> Bool {
        let flags = cws_ws_flags(binary ? 1 : 0, isStart ? 1 : 0, isEnd ? 1 : 0)
        let written = writeBuffer.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress! + pre
            fill(base)
            return lws_write(wsi, base, count, lws_write_protocol(rawValue: UInt32(flags)))
        }
        return written >= count
    }
}

/// The lws protocol callback: a plain function, no captures; it finds the core
/// through the context's user pointer.
func serverCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else { return 0 }
    return Unmanaged<ServerCore>.fromOpaque(raw).takeUnretainedValue().callback(wsi, reason, user, input, length)
}

/// The HTTP callback: upgrades to check, static files from the public directory.
func httpCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    let handled = [LWS_CALLBACK_HTTP, LWS_CALLBACK_HTTP_CONFIRM_UPGRADE, LWS_CALLBACK_CLOSED_HTTP,
                   LWS_CALLBACK_HTTP_BODY, LWS_CALLBACK_HTTP_BODY_COMPLETION, LWS_CALLBACK_HTTP_WRITEABLE]
    guard let wsi, handled.contains(reason), let context = lws_get_context(wsi), let raw = lws_context_user(context) else {
        return cws_http_default(wsi, reason, user, input, length)
    }
    let core = Unmanaged<ServerCore>.fromOpaque(raw).takeUnretainedValue()
    switch reason {
    case LWS_CALLBACK_HTTP: return core.http.serveHTTP(wsi, input, length, port: core.port.load(ordering: .relaxed))
    case LWS_CALLBACK_HTTP_BODY: return core.http.routeBody(wsi, input, length) ?? cws_http_default(wsi, reason, user, input, length)
    case LWS_CALLBACK_HTTP_BODY_COMPLETION: return core.http.routeBodyComplete(wsi) ?? cws_http_default(wsi, reason, user, input, length)
    case LWS_CALLBACK_HTTP_WRITEABLE: return core.http.writeRouteAnswer(wsi) ?? cws_http_default(wsi, reason, user, input, length)
    case LWS_CALLBACK_CLOSED_HTTP:
        core.http.closed(wsi)
        return cws_http_default(wsi, reason, user, input, length)
    default: return core.http.confirmUpgrade(wsi, port: core.port.load(ordering: .relaxed))
    }
}

/// Runs `body` with a C string or nil.
func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}
