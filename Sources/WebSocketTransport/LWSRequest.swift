import CLibWebSockets
import CWebSocketShim
import Foundation

/// What a request says, as lws read it (on the service thread, during its callback).
enum LWSRequest {
    /// The request's path, without its query.
    static func path(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        let n = cws_request_path(wsi, &buffer, Int32(buffer.count))
        guard n > 0 else { return "" }
        let path = String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
    }

    /// The peer's IP address, as lws reads it.
    static func peerAddress(_ wsi: OpaquePointer) -> String {
        var peer = [CChar](repeating: 0, count: 64)
        return lws_get_peer_simple(wsi, &peer, peer.count).map { String(cString: $0) } ?? ""
    }

    /// A request header's value, "" when present but empty, nil when absent (or longer than `cap`).
    static func presentHeader(_ wsi: OpaquePointer, _ token: lws_token_indexes, cap: Int) -> String? {
        guard cws_header_present(wsi, Int32(token.rawValue)) != 0 else { return nil }
        return Self.header(wsi, token, cap: cap) ?? ""
    }

    /// A request header's value, nil when absent or longer than `cap`.
    static func header(_ wsi: OpaquePointer, _ token: lws_token_indexes, cap: Int) -> String? {
        var buffer = [CChar](repeating: 0, count: cap)
        let n = cws_request_header(wsi, Int32(token.rawValue), &buffer, Int32(cap))
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
