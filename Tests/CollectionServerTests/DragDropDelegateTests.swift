import CollectionProtocol
import CollectionServer
import ProjectTestSupport
import Synchronization
import Testing

/// Drops onto "right" from "left": the drop delegate and the source's drag delegate
/// each learn who drags.
final class RecordingDrops: LiveCollectionDropDelegate, LiveCollectionDragDelegate {
    let log = Mutex<[String]>([])
    private func note(_ s: String) { log.withLock { $0.append(s) } }

    func collectionView(_ collectionView: LiveCollection, canHandle session: DropSession, by viewer: Viewer) -> Bool {
        note("canHandle \(viewer.name)")
        return true
    }
    func collectionView(_ collectionView: LiveCollection, dropSessionDidUpdate session: DropSession,
                        withDestinationIndexPath destinationIndexPath: IndexPath?, by viewer: Viewer) -> CollectionViewDropProposal {
        note("update \(viewer.name)")
        return CollectionViewDropProposal(operation: .move, intent: .insertAtDestinationIndexPath)
    }
    func collectionView(_ collectionView: LiveCollection, performDropWith coordinator: any CollectionViewDropCoordinator, by viewer: Viewer) {
        note("perform \(viewer.name) \(collectionView.name)")
        // The collection's model, changed as one batch: items come in at the destination.
        (coordinator as? ModelDropCoordinator)?.insertItems(at: coordinator.destinationIndexPath ?? IndexPath(item: 0, section: 0))
    }
    /// "l2" never leaves; "l1" only for Ana.
    func collectionView(_ collectionView: LiveCollection, itemsForBeginning item: DragItem, at indexPath: IndexPath, by viewer: Viewer) -> [DragItem] {
        note("drag \(item.localObject ?? "?") \(viewer.name) \(collectionView.name)")
        return item.localObject == "l2" || viewer.name != "Ana" ? [] : [item]
    }
}

@Suite(.tags(.integration)) struct DragDropDelegateTests {
    static func model(_ ids: [String]) -> CollectionModel {
        var m = CollectionModel()
        m.snapshot.appendSections(["s"])
        m.snapshot.appendItems(ids, toSection: "s")
        for id in ids { m.itemContent[id] = ["title": id] }
        return m
    }

    @Test func dropAndDragDelegatesHearTheViewer() async throws {
        let server = CollectionServer(configuration: .testing)
        let left = server.addCollection(named: "left")
        let right = server.addCollection(named: "right")
        left.load(Self.model(["l1", "l2"]))
        right.load(Self.model(["r1"]))
        let drops = RecordingDrops()
        right.dropDelegate = drops
        left.dragDelegate = drops
        left.allowedEdits = .all
        let port = try server.start()
        defer { server.stop() }
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(wantOrder: true, name: "Ana", collection: "right")
        let ben = try await TestViewer.connect(port: port)
        try await ben.hello(wantOrder: true, name: "Ben", collection: "right")

        // Ben may not drag l1 out: the hover is forbidden, the drop refused, nothing changes.
        ben.send(#"{"type":"dropUpdate","x":10,"y":10,"source":{"collection":"left","item":"l1"}}"#)
        guard case .dropProposal(let p) = try await ben.next("dropProposal") else { Issue.record("no proposal"); return }
        #expect(p.operation == "forbidden")
        ben.send(#"{"type":"drop","op":"b1","x":10,"y":10,"source":{"collection":"left","item":"l1"}}"#)
        guard case .reject(_, let code, _) = try await ben.next("reject") else { Issue.record("no reject"); return }
        #expect(code == .dropForbidden)
        // Nobody drags l2.
        ana.send(#"{"type":"drop","op":"a0","x":10,"y":10,"source":{"collection":"left","item":"l2"}}"#)
        try await ana.next("reject")
        #expect(right.model.snapshot.itemIdentifiers == ["r1"])

        // Ana drags l1 over and drops it: every delegate call names her.
        ana.send(#"{"type":"dropUpdate","x":10,"y":10,"source":{"collection":"left","item":"l1"}}"#)
        guard case .dropProposal(let q) = try await ana.next("dropProposal") else { Issue.record("no proposal"); return }
        #expect(q.operation == "move")
        ana.send(#"{"type":"drop","op":"a1","x":10,"y":10,"source":{"collection":"left","item":"l1"}}"#)
        try await ana.next("ack")
        #expect(right.model.snapshot.itemIdentifiers == ["l1", "r1"])
        #expect(left.model.snapshot.itemIdentifiers == ["l2"])
        let log = drops.log.withLock { $0 }
        #expect(log.filter { $0.hasPrefix("drag") } == ["drag l1 Ben left", "drag l1 Ben left", "drag l2 Ana left", "drag l1 Ana left", "drag l1 Ana left"])
        #expect(log.filter { $0.hasPrefix("perform") } == ["perform Ana right"])
        #expect(log.filter { $0.hasPrefix("update") }.allSatisfy { $0 == "update Ana" })
        #expect(log.contains("canHandle Ana"))
    }
}

/// A drag delegate that hears drag sessions begin and end, and lets nothing move.
final class SessionDrags: LiveCollectionDragDelegate {
    let log = Mutex<[String]>([])
    func collectionView(_ collectionView: LiveCollection, itemsForBeginning item: DragItem, at indexPath: IndexPath, by viewer: Viewer) -> [DragItem] { [item] }
    func collectionView(_ collectionView: LiveCollection, dragSessionWillBegin session: DragSession, by viewer: Viewer) {
        log.withLock { $0.append("begin \(viewer.name) \(session.items.compactMap(\.localObject))") }
    }
    func collectionView(_ collectionView: LiveCollection, dragSessionDidEnd session: DragSession, by viewer: Viewer) {
        log.withLock { $0.append("end \(viewer.name) \(session.items.compactMap(\.localObject))") }
    }
    func collectionView(_ collectionView: LiveCollection, dragSessionAllowsMoveOperation session: DragSession, by viewer: Viewer) -> Bool { false }
}

@Suite(.tags(.integration)) struct DragSessionDelegateTests {
    @Test func theAppsDragDelegateHearsWhoDragsWhatAndMayForbidMoving() async throws {
        let server = CollectionServer(configuration: .testing)
        let left = server.addCollection(named: "left")
        left.load(DragDropDelegateTests.model(["l1", "l2", "l3"]))
        let drags = SessionDrags()
        left.dragDelegate = drags
        let port = try server.start()
        defer { server.stop() }
        let ana = try await TestViewer.connect(port: port)
        try await ana.hello(wantOrder: true, name: "Ana", collection: "left")
        ana.send(#"{"type":"dragBegin","item":"l1","x":10,"y":10}"#)
        guard case .dragSession(let id, let items, let allowsMove) = try await ana.next("dragSession") else { Issue.record("no session"); return }
        #expect(items == ["l1"] && !allowsMove && !id.isEmpty)
        // Adding an item: by default, the item as the collection holds it.
        ana.send(#"{"type":"dragAdd","item":"l3","x":10,"y":10}"#)
        guard case .dragSession(_, let more, _) = try await ana.next("dragSession") else { Issue.record("no session"); return }
        #expect(more == ["l1", "l3"])
        ana.send(#"{"type":"dragEnd"}"#)
        ana.send(#"{"type":"scroll","offset":{"x":0,"y":0}}"#)
        try await ana.next("window")   // the end was handled before it
        #expect(drags.log.withLock { $0 } == ["begin Ana [\"l1\"]", "end Ana [\"l1\", \"l3\"]"])
    }
}
