import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import StorefrontExample
import Testing

/// The store takes moves of its basket's rows only, and only within the basket.
@Suite(.tags(.integration)) struct StoreBasketTests {
    @Test func onlyTheBasketReorders() async throws {
        let server = CollectionServer(configuration: .testing)
        try await StorefrontExample.add(to: server)
        let port = try server.start()
        defer { server.stop() }
        let v = try await TestViewer.connect(port: port)
        try await v.hello(width: 945, height: 800, wantOrder: true, collection: "store")
        let basket = try #require(v.mirror.sections.firstIndex { $0.id == "basket" })
        v.send(#"{"type":"moveBegin","item":"p1"}"#)
        guard case .error(.notMovable, _, _) = try await v.next("error") else { Issue.record("a product moved"); return }
        v.send(#"{"type":"move","op":"m1","item":"b1","section":"basket","after":"b3"}"#)
        guard case .ack(_, let seq) = try await v.next(where: { $0.type == "ack" || $0.type == "reject" }) else { Issue.record("the basket did not reorder"); return }
        try await v.wait(forSeq: seq)
        #expect(v.mirror.order?[basket] == ["b2", "b3", "b1", "b4", "b5"])
        v.send(#"{"type":"move","op":"m2","item":"b2","section":"deals","after":null}"#)
        // Out of the basket: the delegate keeps it there, so the move is refused.
        guard case .reject(_, .notMovable, let message) = try await v.next(where: { $0.type == "ack" || $0.type == "reject" }) else {
            Issue.record("a basket row moved out of the basket"); return
        }
        #expect(message.contains("cannot be moved there"))
        #expect(v.mirror.order?[basket] == ["b2", "b3", "b1", "b4", "b5"])
    }

    @Test func aSwipedRemoveIsTheSwipingViewersBatch() async throws {
        let server = CollectionServer(configuration: .testing)
        try await StorefrontExample.add(to: server)
        let port = try server.start()
        defer { server.stop() }
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(width: 945, height: 800, wantOrder: true, name: "Ana", collection: "store")
        let ben = try await TestViewer.connect(port: port)
        try await ben.hello(width: 600, height: 800, wantOrder: true, collection: "store")
        ana.send(#"{"type":"swipeAction","item":"b2","edge":"trailing","index":0}"#)
        let removed = try await ben.next(where: { if case .batch(let b) = $0 { b.deletedIds == ["b2"] } else { false } })
        guard case .batch(let batch) = removed else { return }
        #expect(batch.by == ana.mirror.viewer?.id && batch.by != "server")
    }
}
