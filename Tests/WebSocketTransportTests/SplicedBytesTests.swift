import Synchronization
import Testing
import WebSocketTransport

/// Messages whose bytes are partly shared: what they join to, and what a peer reads.
@Suite(.tags(.integration)) struct SplicedBytesTests {
    /// Joining puts the shared run in at its offset, wherever that is; offsets past
    /// either end are clamped.
    @Test func joinsAtEveryOffset() {
        let own = Array("{\"type\":\"batch\"}".utf8)
        let shared = Array(",\"moves\":[1,2]".utf8)
        for offset in 0...own.count {
            let spliced = SplicedBytes(own: own, inserting: shared, at: offset)
            #expect(spliced.joined() == Array(own[..<offset]) + shared + Array(own[offset...]))
            #expect(spliced.count == own.count + shared.count)
        }
        #expect(SplicedBytes(own: own, inserting: shared, at: 99).joined() == own + shared)
        #expect(SplicedBytes(own: own, inserting: shared, at: -3).joined() == shared + own)
        #expect(SplicedBytes(own).joined() == own)
        #expect(SplicedBytes(own: [], inserting: shared, at: 0).joined() == shared)
    }

    /// Through a live server: a spliced message written at once, and one too long for
    /// a fragment (queued, then written in pieces), each reach the peer joined, in order.
    @Test func aPeerReadsTheJoinedBytes() async throws {
        let opened = Mutex<ConnectionID?>(nil)
        var configuration = WebSocketServerConfiguration()
        configuration.port = 0
        configuration.fragmentSize = 1_024
        let server = WebSocketServer(configuration: configuration) { event in
            if case let .opened(id, _, _, _) = event { opened.withLock { $0 = id } }
        }
        let port = try server.start()
        defer { server.stop() }
        let client = try await WebSocketClient.connect(port: port)
        defer { client.close() }
        var id: ConnectionID?
        for _ in 0..<500 where id == nil {
            id = opened.withLock { $0 }
            if id == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let connection = try #require(id)
        let shared = Array(repeating: UInt8(ascii: "m"), count: 300) + Array("moves".utf8)
        let small = SplicedBytes(own: Array("head|tail".utf8), inserting: shared, at: 5)
        let large = SplicedBytes(own: Array(repeating: UInt8(ascii: "a"), count: 1_500) + Array("end".utf8), inserting: shared, at: 700)
        server.send(small, to: connection)
        server.send(large, to: connection)
        server.send(Array("plain".utf8), to: connection)
        for expected in [small.joined(), large.joined(), Array("plain".utf8)] {
            let message = try await client.receive()
            #expect(message.text.map { Array($0.utf8) } == expected)
        }
    }
}
