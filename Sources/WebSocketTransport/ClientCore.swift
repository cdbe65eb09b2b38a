import CLibWebSockets
import CWebSocketShim
import Foundation

/// The service-thread side of ``WebSocketClient``: one context, one connection.
/// Mutable state is touched only on the service thread (before the loop starts,
/// on the starting thread), hence the unchecked Sendable.
final class ClientCore: @unchecked Sendable {
    let loop = ServiceLoop<TransportCommand>(name: "lws-client")
    let mailbox = ClientMailbox()
    private var client: OpaquePointer?
    private var wsi: OpaquePointer?
    private var inbound: InboundAssembler
    private var outbound = OutboundQueue()
    private var pendingClose: (CloseCode, String)?
    private var buffer = [UInt8](repeating: 0, count: Int(cws_pre()) + 16 * 1024)

    init(maxMessageSize: Int) {
        inbound = InboundAssembler(limit: maxMessageSize)
    }

    func start(host: String, port: Int, path: String, subprotocol: String?, tls: Bool, caFile: String?) throws {
        lws_set_log_level(Int32(LLL_ERR), nil)
        let raw = Unmanaged.passUnretained(self).toOpaque()
        guard let created = withOptionalCString(caFile, { cws_client_create("client", clientCallback, raw, $0, tls ? 1 : 0) }) else {
            throw TransportError.cannotCreateContext("cannot create a libwebsockets client context")
        }
        client = created
        let connected = host.withCString { h in
            path.withCString { p in
                withOptionalCString(subprotocol) { proto in
                    cws_client_connect(created, h, Int32(port), p, tls ? 1 : 0, proto)
                }
            }
        }
        if connected == nil {
            cws_client_destroy(created)
            client = nil
            throw TransportError.connectFailed("could not start a connection to \(host):\(port)")
        }
        loop.start(context: cws_client_context(created)) { [self] in
            cws_client_destroy(client)
            client = nil
            mailbox.didClose()
        }
    }

    /// Stops the connection's thread; `waiting`: until it has ended (see ``ServiceLoop/stop(waiting:)``).
    func stop(waiting: Bool = true) { loop.stop(waiting: waiting) }

    /// Stops after the queued close has had a moment to go out (in a task: not waited for).
    func stopSoon() {
        Task { [self] in
            try? await Task.sleep(for: .milliseconds(50))
            loop.stop(waiting: false)
        }
    }

    private func perform(_ command: TransportCommand) {
        guard let wsi else { return }
        switch command {
        case let .send(_, bytes, binary):
            _ = outbound.enqueue(bytes.joined(), binary: binary)
        case let .close(_, code, reason), let .shutdown(code, reason):
            pendingClose = (code, reason)
        case let .read(enabled):
            lws_rx_flow_control(wsi, enabled ? 1 : 0)
            return
        case .confirm, .sweep, .answer:
            return
        }
        lws_callback_on_writable(wsi)
    }

    func callback(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            self.wsi = wsi
            mailbox.didOpen()
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let why = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "unknown error"
            self.wsi = nil
            mailbox.didFail(why)
        case LWS_CALLBACK_CLIENT_RECEIVE:
            let isFinal = lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0
            let chunk = UnsafeRawBufferPointer(start: input, count: input == nil ? 0 : length)
            switch inbound.append(chunk, binary: lws_frame_is_binary(wsi) != 0, isFinal: isFinal) {
            case .incomplete: break
            case let .message(bytes, binary):
                mailbox.didReceive(binary ? .binary(bytes) : .text(String(decoding: bytes, as: UTF8.self)))
            case .tooLarge: return -1
            }
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            if let input, length >= 2 {
                let b = input.assumingMemoryBound(to: UInt8.self)
                mailbox.didPeerClose(code: Int(b[0]) << 8 | Int(b[1]))
            } else {
                mailbox.didPeerClose(code: nil)
            }
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            return writeable(wsi)
        case LWS_CALLBACK_CLIENT_CLOSED:
            self.wsi = nil
            mailbox.didClose()
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            for command in loop.drain() { perform(command) }
        default:
            break
        }
        return 0
    }

    private func writeable(_ wsi: OpaquePointer) -> Int32 {
        guard let fragment = outbound.nextFragment() else {
            if let (code, reason) = pendingClose {
                cws_close_reason(wsi, Int32(code.rawValue), reason)
                return -1
            }
            return 0
        }
        let pre = Int(cws_pre())
        let count = fragment.bytes.count
        buffer.withUnsafeMutableBufferPointer { b in
            fragment.bytes.withUnsafeBufferPointer { s in (b.baseAddress! + pre).update(from: s.baseAddress!, count: count) }
        }
        let flags = cws_ws_flags(fragment.binary ? 1 : 0, fragment.isStart ? 1 : 0, fragment.isEnd ? 1 : 0)
        let written = buffer.withUnsafeMutableBufferPointer { b in
            lws_write(wsi, b.baseAddress! + pre, count, lws_write_protocol(rawValue: UInt32(flags)))
        }
        if written < count { return -1 }
        if !outbound.isEmpty || pendingClose != nil { lws_callback_on_writable(wsi) }
        return 0
    }
}

func clientCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let raw = lws_context_user(context) else { return 0 }
    return Unmanaged<ClientCore>.fromOpaque(raw).takeUnretainedValue().callback(wsi, reason, input, length)
}
