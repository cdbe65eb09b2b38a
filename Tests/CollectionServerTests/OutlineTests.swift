import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import StorefrontExample
import Testing

/// Outlines (section snapshots, UIKit's outline disclosure): the store's help topics
/// expand and collapse for every viewer, their disclosure following.
@Suite(.tags(.integration)) struct OutlineTests {
    func help(_ viewer: TestViewer) -> [String] {
        viewer.mirror.order?.last ?? []
    }

    /// The store, and Ana (400 wide) and Ben (600) watching it.
    func store() async throws -> (CollectionServer, TestViewer, TestViewer) {
        let server = CollectionServer(configuration: .testing)
        try await StorefrontExample.add(to: server)
        let port = try server.start()
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(width: 400, height: 800, wantOrder: true, collection: "store")
        let ben = try await TestViewer.connect(port: port)
        try await ben.hello(width: 600, height: 800, wantOrder: true, collection: "store")
        return (server, ana, ben)
    }

    @Test func aViewerExpandsATopicAndEveryoneSeesItsAnswers() async throws {
        let (server, ana, ben) = try await store()
        defer { server.stop() }
        #expect(help(ana) == ["h-delivery", "h-returns", "h-payment"])
        let start = ana.mirror.seq
        ana.send(#"{"type":"outline","item":"h-returns","expanded":true}"#)
        try await ana.wait(forSeq: start + 1)
        try await ben.wait(forSeq: start + 1)
        for viewer in [ana, ben] { #expect(help(viewer) == ["h-delivery", "h-returns", "h-returns-1", "h-returns-2", "h-payment"]) }
        // The topic's disclosure shows it expanded; its answers are indented under it.
        let batch = try #require(ana.received.compactMap { m -> ServerMessage.Batch? in if case .batch(let b) = m, b.seq == start + 1 { b } else { nil } }.first)
        // (The topic is reconfigured, as UIKit's section snapshots do: the same cell with
        // its new content, not a reload.)
        #expect(batch.insertedIds == ["h-returns-1", "h-returns-2"] && batch.reloads.isEmpty)
        ana.send(#"{"type":"scrollToItem","item":"h-returns-1","position":"center"}"#)
        try await ana.next("window")
        #expect(ana.mirror.element(item: "h-returns")?.content["accessories"] == "outlineDisclosure:expanded")
        #expect(ana.mirror.element(item: "h-returns-1")?.content["indentationLevel"] == "1")
        #expect(ana.mirror.element(item: "h-returns")?.content["listAppearance"] == "sidebar")
        // An answer has nothing to expand; a collapsed topic nothing to collapse.
        ana.send(#"{"type":"outline","item":"h-returns-1","expanded":true}"#)
        guard case .error(.refused, _, _) = try await ana.next("error") else { Issue.record("expected refused"); return }
        ana.send(#"{"type":"outline","item":"h-payment","expanded":false}"#)
        guard case .error(.refused, _, _) = try await ana.next("error") else { Issue.record("expected refused"); return }
        ben.send(#"{"type":"outline","item":"h-returns","expanded":false}"#)
        try await ana.wait(forSeq: start + 2)
        #expect(help(ana) == ["h-delivery", "h-returns", "h-payment"])
    }

    /// Two rows expanded in one turn (E-mail, then Push, clicked quickly; or two
    /// viewers at once): the second starts from the first, never undoing it.
    @Test func twoTopicsExpandedAtOnceBothStayOpen() async throws {
        let (server, ana, ben) = try await store()
        defer { server.stop() }
        let start = ana.mirror.seq
        ana.send(#"{"type":"outline","item":"h-delivery","expanded":true}"#)
        ben.send(#"{"type":"outline","item":"h-payment","expanded":true}"#)
        ana.send(#"{"type":"outline","item":"h-returns","expanded":true}"#)
        let open = ["h-delivery", "h-delivery-1", "h-delivery-2", "h-delivery-3", "h-returns", "h-returns-1", "h-returns-2",
                    "h-payment", "h-payment-1", "h-payment-2"]
        _ = try await ana.next(where: { _ in help(ana) == open })
        try await ben.wait(forSeq: ana.mirror.seq)
        #expect(help(ben) == open)
        #expect(ana.mirror.seq > start)
        // …and each topic's disclosure says so (the outline kept, not only the rows shown).
        ana.send(#"{"type":"scrollToItem","item":"h-payment-2","position":"center"}"#)
        _ = try await ana.next(where: { _ in ana.mirror.element(item: "h-payment-2") != nil && ana.mirror.element(item: "h-delivery") != nil })
        for topic in ["h-delivery", "h-returns", "h-payment"] {
            #expect(ana.mirror.element(item: topic)?.content["accessories"] == "outlineDisclosure:expanded", "\(topic)")
        }
        // Collapsing one leaves the others open.
        ben.send(#"{"type":"outline","item":"h-returns","expanded":false}"#)
        _ = try await ana.next(where: { _ in help(ana) == open.filter { !$0.hasPrefix("h-returns-") } })
    }
}
