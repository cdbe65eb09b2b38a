import CollectionServer
import ProjectTestSupport
import Testing

/// A connection that never says hello is closed; one that does stays.
@Suite(.tags(.integration)) struct HelloTimeoutTests {
    @Test func aConnectionWithoutHelloIsClosedWith1008() async throws {
        var configuration = CollectionServer.Configuration.testing
        configuration.helloTimeout = 1
        let server = CollectionServer(configuration: configuration)
        _ = server.addCollection(named: "c")
        let port = try server.start()
        defer { server.stop() }
        // The talker is a bare socket that says hello right after its upgrade, with no
        // await in between: under the full suite the test process was seen stalling
        // for seconds between a library client's connect and its hello, and the
        // one-second limit closed a client that would have said it.
        let talker = try RawWebSocket(port: port)
        talker.send([#"{"type":"hello","viewport":{"width":400,"height":300}}"#])
        #expect(talker.read(until: "\"welcome\"", count: 1))
        let silent = try await TestViewer.connect(port: port)
        // Closed between 1 and 2 seconds after it opened (the check runs every second).
        let code = try await silent.socket.waitForClose(timeout: .seconds(10))
        #expect(code == 1008)
        // The talker is still served.
        talker.send([#"{"type":"scroll","offset":{"x":0,"y":0}}"#])
        #expect(talker.read(until: "\"window\"", count: 1))
        // A server with no limit keeps silent connections.
        var open = configuration
        open.helloTimeout = 0
        let patient = CollectionServer(configuration: open)
        _ = patient.addCollection(named: "c")
        let patientPort = try patient.start()
        defer { patient.stop() }
        let waiting = try await TestViewer.connect(port: patientPort)
        try await Task.sleep(for: .seconds(2))
        #expect(!waiting.socket.isClosed)
    }
}
