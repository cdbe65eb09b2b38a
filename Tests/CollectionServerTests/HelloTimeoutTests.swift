import CollectionServer
import CollectionTesting
import Testing

/// A connection that never says hello is closed; one that does stays.
@Suite struct HelloTimeoutTests {
    @Test func aConnectionWithoutHelloIsClosedWith1008() async throws {
        var configuration = CollectionServer.Configuration.testing
        configuration.helloTimeout = 1
        let server = CollectionServer(configuration: configuration)
        _ = server.addCollection(named: "c")
        let port = try server.start()
        defer { server.stop() }
        let silent = try await TestViewer.connect(port: port)
        let talker = try await TestViewer.connect(port: port)
        try await talker.hello()
        // Closed between 1 and 2 seconds after it opened (the check runs every second).
        let code = try await silent.socket.waitForClose(timeout: .seconds(4))
        #expect(code == 1008)
        #expect(!talker.socket.isClosed)
        talker.send(#"{"type":"scroll","offset":{"x":0,"y":0}}"#)
        _ = try await talker.next("window")
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
