import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import StorefrontExample
import Synchronization
import Testing

/// A list row's accessory with an action handler (UIKit's `actionHandler`): a
/// viewer choosing it runs the handler on the server, with that viewer acting. The
/// store's basket rows have an insert accessory that adds one more of the row.
@Suite(.tags(.integration)) struct AccessoryActionTests {
    func basketRow(_ viewer: TestViewer, _ id: String) async throws -> [String: String]? {
        viewer.send(#"{"type":"scrollToItem","item":"\#(id)","position":"center"}"#)
        _ = try await viewer.next("window")
        return viewer.mirror.element(item: id)?.content
    }

    @Test func aViewerAddsOneMoreAndEveryoneSeesTheCount() async throws {
        let server = CollectionServer(configuration: .testing)
        defer { server.stop() }
        try await StorefrontExample.add(to: server)
        let port = try server.start()
        let ana = try await TestViewer.connect(port: port)
        guard case .welcome(let welcome) = try await ana.hello(width: 400, height: 800, collection: "store") else { Issue.record("no welcome"); return }
        let ben = try await TestViewer.connect(port: port)
        try await ben.hello(width: 600, height: 800, collection: "store")
        // The insert accessory is marked as having a handler ("!"); the others are not.
        let before = try await basketRow(ana, "b2")
        #expect(before?["accessories"] == "delete insert! disclosureIndicator reorder")
        #expect(before?["secondaryText"] == "€12 · 3")
        let start = ana.mirror.seq
        ana.send(#"{"type":"accessory","item":"b2","name":"insert"}"#)
        try await ana.wait(forSeq: start + 1)
        try await ben.wait(forSeq: start + 1)
        // The handler's batch names Ana and reconfigures the row for everyone.
        let batch = try #require(ben.received.compactMap { m -> ServerMessage.Batch? in if case .batch(let b) = m, b.seq == start + 1 { b } else { nil } }.first)
        #expect(batch.by == welcome.viewer.id)
        #expect(try await basketRow(ben, "b2")?["secondaryText"] == "€12 · 4")
        #expect(try await basketRow(ana, "b2")?["secondaryText"] == "€12 · 4")
        // An accessory the row has without a handler, or an item without that accessory, is refused,
        // and changes nothing.
        ana.send(#"{"type":"accessory","item":"b2","name":"checkmark"}"#)
        guard case .error(.refused, let why, _) = try await ana.next("error") else { Issue.record("expected refused"); return }
        #expect(why == "item 'b2' has no checkmark accessory with an action; nothing was done")
        ana.send(#"{"type":"accessory","item":"h-returns","name":"insert"}"#)
        guard case .error(.refused, _, _) = try await ana.next("error") else { Issue.record("expected refused"); return }
        ana.send(#"{"type":"accessory","item":"zz","name":"insert"}"#)
        guard case .error(.unknownItem, _, _) = try await ana.next("error") else { Issue.record("expected unknown_item"); return }
        #expect(ana.mirror.seq == start + 1)
    }

    /// A classic data source's list cells: their accessories' handlers run too, for the
    /// item the viewer chose (its row in the app's data), and are shown by editing mode.
    final class Groceries: CollectionViewDataSource, @unchecked Sendable {
        var names = ["Apples", "Bread", "Cheese"]
        let added = Mutex<[String]>([])
        func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { names.count }
        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            let cell = collectionView.dequeueReusableCell(withReuseIdentifier: CollectionViewListCell.reuseIdentifier, for: indexPath) as! CollectionViewListCell
            var content = cell.defaultContentConfiguration()
            content.text = names[indexPath.row]
            cell.contentConfiguration = content
            let name = names[indexPath.row]
            cell.accessories = [.insert(displayed: .always) { [weak self] in self?.added.withLock { $0.append(name) } }, .reorder()]
            return cell
        }
    }

    @Test func aClassicListCellsAccessoryHandlerRuns() async throws {
        let server = CollectionServer(configuration: .testing)
        defer { server.stop() }
        let list = server.addCollection(named: "groceries")
        list.register(CollectionViewListCell.self, forCellWithReuseIdentifier: CollectionViewListCell.reuseIdentifier)
        let groceries = Groceries()
        try list.setDataSource(groceries)
        let port = try server.start()
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(wantOrder: true, collection: "groceries")
        let ids = try #require(ana.mirror.order?.first)
        let bread = ids[1]
        // Shown in each viewer's editing mode: reorder while editing only (UIKit's default).
        #expect(ana.mirror.element(item: bread)?.content["accessories"] == "insert! reorder@editing")
        ana.send(#"{"type":"accessory","item":"\#(bread)","name":"insert"}"#)
        ana.send(#"{"type":"accessory","item":"\#(bread)","name":"reorder"}"#)
        guard case .error(.refused, _, _) = try await ana.next("error") else { Issue.record("expected refused"); return }
        #expect(groceries.added.withLock { $0 } == ["Bread"])
    }
}
