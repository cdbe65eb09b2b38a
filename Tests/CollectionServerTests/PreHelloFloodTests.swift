import CollectionServer
import ProjectTestSupport
import Foundation
import Testing

/// Sockets that upgrade and never say hello, from several addresses, cannot keep
/// viewers out: they have a budget of their own, and the oldest make room.
@Suite(.tags(.integration)) struct PreHelloFloodTests {
    @Test func aFloodFromSeveralAddressesDoesNotRefuseAViewer() async throws {
        var configuration = CollectionServer.Configuration.testing
        configuration.maxConnections = 40
        configuration.maxPendingConnections = 16
        configuration.maxPendingPerAddress = 4
        let server = CollectionServer(configuration: configuration)
        _ = server.addCollection(named: "c")
        let port = try server.start()
        defer { server.stop() }
        // Two viewers are in before the flood.
        let early = try RawWebSocket(port: port)
        early.send([#"{"type":"hello","viewport":{"width":400,"height":300}}"#])
        #expect(early.read(until: "\"welcome\"", count: 1))
        // Eight addresses, six sockets each, none says anything: 48 for 16 places.
        var flood: [RawWebSocket] = []
        for a in 2...9 {
            for _ in 0..<6 { flood.append(try RawWebSocket(port: port, from: "127.0.0.\(a)")) }
        }
        // A viewer arriving now gets in, and says hello as browsers do.
        let viewer = try RawWebSocket(port: port)
        viewer.send([#"{"type":"hello","viewport":{"width":400,"height":300}}"#])
        #expect(viewer.read(until: "\"welcome\"", count: 1), "a viewer was kept out by the flood")
        // So does one more after it: every slot the flood took is one a viewer may take.
        let another = try RawWebSocket(port: port)
        another.send([#"{"type":"hello","viewport":{"width":400,"height":300}}"#])
        #expect(another.read(until: "\"welcome\"", count: 1))
        // The early one is still served.
        early.send([#"{"type":"scroll","offset":{"x":0,"y":0}}"#])
        #expect(early.read(until: "\"window\"", count: 1))
        // Each address's fifth and sixth were refused (1008), and the oldest of the
        // rest (those of the first addresses) were closed to make room.
        for a in 0..<8 {
            #expect(flood[a * 6 + 4].closeCode() == 1008 && flood[a * 6 + 5].closeCode() == 1008)
        }
        for socket in flood.prefix(4 * 6) where flood.firstIndex(where: { $0 === socket })! % 6 < 4 {
            #expect(socket.closeCode() == 1008, "the oldest silent sockets made room")
        }
    }
}
