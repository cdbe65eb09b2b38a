import CollectionProtocol
import CollectionServer
import CollectionTesting
import Synchronization
import Testing

/// CollectionTesting's harness: one test body, run in this process (no socket) and
/// live (over WebSockets), against a server set up with the public API only.
@Suite(.tags(.integration)) struct TestingSetupTests {
    /// A typed collection of six items, only Ana may move them, and a delegate that
    /// hears which viewer moved what.
    final class Moves: LiveCollectionDelegate {
        private let log = Mutex<[String]>([])
        var moves: [String] { log.withLock { $0 } }
        func collectionView(_ collection: LiveCollection, canMoveItemAt indexPath: IndexPath, by viewer: Viewer) -> Bool { viewer.name == "Ana" }
        func collectionView(_ collection: LiveCollection, moveItemAt from: IndexPath, to: IndexPath, by viewer: Viewer) {
            log.withLock { $0.append("\(viewer.name) \(from.item)→\(to.item)") }
        }
    }

    func server() async throws -> (CollectionServer, LiveDiffableDataSource<String, String>, Moves) {
        var configuration = CollectionServer.Configuration(port: 0, logLevel: .error)
        configuration.storage = .inMemory
        let server = CollectionServer(configuration: configuration)
        let collection = server.addCollection(named: "t")
        let dataSource = LiveDiffableDataSource<String, String>(collection: collection, cellRegistration: CellRegistration(template: "card") { ["title": $0] })
        collection.setLayoutProvider { _ in
            let layout = CollectionViewFlowLayout()
            layout.itemSize = CGSize(width: 100, height: 50)
            return layout
        }
        let moves = Moves()
        collection.delegate = moves
        var snapshot = NSDiffableDataSourceSnapshot<String, String>()
        snapshot.appendSections(["s"])
        snapshot.appendItems(["a", "b", "c", "d", "e", "f"])
        try await dataSource.apply(snapshot)
        return (server, dataSource, moves)
    }

    @Test(arguments: [TestingSetup.inProcess, .live])
    func oneBodyRunsInProcessAndLive(setup: TestingSetup) async throws {
        let (server, dataSource, moves) = try await server()
        let order = try await server.test(setup) { client in
            let ana = try await client.viewer()
            try await ana.hello(width: 800, height: 600, wantOrder: true, name: "Ana", collection: "t")
            let ben = try await client.viewer()
            try await ben.hello(width: 320, height: 600, wantOrder: true, name: "Ben", collection: "t")
            // Ben may not move: refused, by op, and nothing changes.
            ben.send(#"{"type":"move","op":"b1","item":"a","section":"s","after":"c"}"#)
            let refused = try await ben.next("reject")
            #expect(refused == .reject(op: "b1", code: .notMovable, message: refused.rejectMessage))
            // Ana's move is numbered, acknowledged, and reaches Ben in his own layout.
            ana.send(#"{"type":"move","op":"a1","item":"a","section":"s","after":"c"}"#)
            let ack = try await ana.next("ack")
            #expect(ack == .ack(op: "a1", seq: 2))
            try await ben.wait(forSeq: 2)
            try await ana.wait(forSeq: 2)
            #expect(ben.mirror.order == [["b", "c", "a", "d", "e", "f"]])
            return ana.mirror.order
        }
        #expect(order == [["b", "c", "a", "d", "e", "f"]])
        #expect(moves.moves == ["Ana 0→2"])
        #expect(dataSource.snapshot().itemIdentifiers == ["b", "c", "a", "d", "e", "f"])
    }

    @Test func aViewerTheServerClosesSeesTheCloseInProcess() async throws {
        let (server, _, _) = try await server()
        let viewer = try await server.test(.inProcess) { client in
            let ana = try await client.viewer()
            try await ana.hello(width: 800, height: 600, collection: "t")
            return ana
        }
        // The server stopped when the body returned: its viewers were closed with 1001.
        #expect(try await viewer.socket.waitForClose(timeout: .seconds(5)) == 1001)
    }
}

private extension ServerMessage {
    var rejectMessage: String {
        if case .reject(_, _, let message) = self { return message }
        return ""
    }
}
