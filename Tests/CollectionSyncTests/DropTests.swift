import CollectionCore
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Testing

/// A hub named `name` with the standard drop delegate; `folders` get kind "folder".
private func dropHub(_ name: String = "main", sections: [(String, Int)] = [("a", 30), ("b", 30)], folders: Set<String> = [],
                     kinds: Set<String> = ["text", "url", "file"], immovable: Set<String> = []) -> (CollectionHub, ModelDropDelegate) {
    var model = CollectionModel()
    model.immovableItems = immovable
    for (id, count) in sections {
        model.snapshot.appendSections([id])
        let items = (0..<count).map { "\(id)\($0)" }
        model.snapshot.appendItems(items, toSection: id)
        for item in items { model.itemContent[item] = folders.contains(item) ? ["title": item, "kind": "folder", "count": "0"] : ["title": item] }
    }
    let hub = CollectionHub(model: model, factory: SerialItemFactory(prefix: name == "main" ? "n" : "\(name)-"), policy: testPolicy(), name: name)
    let delegate = ModelDropDelegate(acceptedKinds: kinds)
    hub.dropDelegate = delegate
    return (hub, delegate)
}

private func proposal(_ out: [Outgoing], to key: UInt64) -> ServerMessage.DropProposal? {
    for case .dropProposal(let p) in messages(out, to: key) { return p }
    return nil
}

private func batches(_ out: [Outgoing], to key: UInt64) -> [ServerMessage.Batch] {
    messages(out, to: key).compactMap { if case .batch(let b) = $0 { b } else { nil } }
}

private func errorCode(_ out: [Outgoing], to key: UInt64) -> ErrorCode? {
    for m in messages(out, to: key) {
        if case .reject(_, let code, _) = m { return code }
        if case .error(let code, _, _) = m { return code }
    }
    return nil
}

@Suite struct DropTests {
    // 320 wide: 3 columns of 100 at x 0, 110, 220; rows at y 20, 130, 240…

    @Test func aHoveringTextGetsACopyProposalAtTheGapUnderThePointer() throws {
        let (hub, _) = dropHub()
        _ = hub.hello(1)
        // Right half of a0: after it.
        var p = try #require(proposal(hub.send(#"{"type":"dropUpdate","x":80,"y":60,"items":[{"kind":"text"}]}"#, from: 1), to: 1))
        #expect(p.operation == "copy" && p.intent == "insertAtDestinationIndexPath" && p.section == 0 && p.item == 1 && p.target == nil)
        // Left half of a4 (second row, middle): before it.
        p = try #require(proposal(hub.send(#"{"type":"dropUpdate","x":115,"y":170,"items":[{"kind":"url"}]}"#, from: 1), to: 1))
        #expect(p.section == 0 && p.item == 4)
        // Over section b's header: the start of b.
        p = try #require(proposal(hub.send(#"{"type":"dropUpdate","x":50,"y":1115,"items":[{"kind":"file"}]}"#, from: 1), to: 1))
        #expect(p.section == 1 && p.item == 0)
    }

    @Test func droppedTextBecomesAnItemForEveryViewer() throws {
        let (hub, _) = dropHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        let out = hub.send(#"{"type":"drop","op":"d1","x":80,"y":60,"items":[{"kind":"text","value":"Buy milk\nand bread"}]}"#, from: 1)
        #expect(messages(out, to: 1).contains(.ack(op: "d1", seq: 1)))
        let b = try #require(batches(out, to: 2).first)
        #expect(b.inserts == [[0, 1]] && b.insertedIds.count == 1)
        let id = b.insertedIds[0]
        #expect(hub.model.snapshot.indexPath(for: id) == IndexPath(item: 1, section: 0))
        #expect(hub.model.itemContent[id]?["title"] == "Buy milk")
        #expect(hub.model.itemContent[id]?["note"] == "Buy milk\nand bread")
        #expect(hub.model.itemContent[id]?["kind"] == "text")
        #expect(hub.model.checkInvariants().isEmpty)
        // The same drop again: the same ack, no second item.
        let again = hub.send(#"{"type":"drop","op":"d1","x":80,"y":60,"items":[{"kind":"text","value":"Buy milk\nand bread"}]}"#, from: 1)
        #expect(messages(again, to: 1) == [.ack(op: "d1", seq: 1)])
        #expect(hub.model.snapshot.numberOfItems == 61)
        // Another drop under the same op id is refused, not taken for the first.
        let other = hub.send(#"{"type":"drop","op":"d1","x":80,"y":60,"items":[{"kind":"text","value":"Buy milk"}]}"#, from: 1)
        guard case .reject("d1", .opReused, _)? = messages(other, to: 1).first else { Issue.record("expected op_reused"); return }
        #expect(hub.model.snapshot.numberOfItems == 61 && hub.sequence == 1)
    }

    @Test func dropsOntoAFolderGoIntoIt() throws {
        let (hub, _) = dropHub(folders: ["a4"])
        _ = hub.hello(1)
        _ = hub.hello(2)
        // a0 dragged over the middle of a4 (second row, middle column).
        let hover = #"{"type":"dropUpdate","x":160,"y":180,"source":{"collection":"main","item":"a0"}}"#
        let p = try #require(proposal(hub.send(hover, from: 1), to: 1))
        #expect(p.operation == "move" && p.intent == "insertIntoDestinationIndexPath" && p.target == "a4" && p.section == 0 && p.item == 4)
        let out = hub.send(#"{"type":"drop","op":"f1","x":160,"y":180,"source":{"collection":"main","item":"a0"}}"#, from: 1)
        let b = try #require(batches(out, to: 2).first)
        #expect(b.deletedIds == ["a0"] && b.insertedIds.isEmpty)
        #expect(b.reloads == [[0, 4]])
        #expect(hub.model.itemContent["a4"]?["count"] == "1")
        #expect(!hub.model.snapshot.contains(item: "a0"))
        // External text into the folder (now first in the second row): a copy, counted, no new item.
        _ = hub.send(#"{"type":"drop","op":"f2","x":50,"y":180,"items":[{"kind":"text","value":"note"}]}"#, from: 1)
        #expect(hub.model.itemContent["a4"]?["count"] == "2")
        #expect(hub.model.snapshot.numberOfItems == 59)
    }

    @Test func aFolderIntoAFolderIsForbiddenAndChangesNothing() throws {
        let (hub, _) = dropHub(folders: ["a0", "a4"])
        _ = hub.hello(1)
        let before = hub.model
        let p = try #require(proposal(hub.send(#"{"type":"dropUpdate","x":160,"y":180,"source":{"collection":"main","item":"a0"}}"#, from: 1), to: 1))
        #expect(p.operation == "forbidden")
        let out = hub.send(#"{"type":"drop","op":"x","x":160,"y":180,"source":{"collection":"main","item":"a0"}}"#, from: 1)
        guard case .reject(let op, let code, let message)? = messages(out, to: 1).first else { Issue.record("expected reject"); return }
        #expect(op == "x" && code == .dropForbidden)
        #expect(message.contains("forbidden") && message.contains("section 0, item 4"))
        #expect(hub.model == before && hub.sequence == 0)
    }

    @Test func aKindTheDelegateDoesNotTakeIsCancelled() throws {
        let (hub, _) = dropHub(kinds: ["text"])
        _ = hub.hello(1)
        let p = try #require(proposal(hub.send(#"{"type":"dropUpdate","x":10,"y":30,"items":[{"kind":"file"}]}"#, from: 1), to: 1))
        #expect(p.operation == "cancel")
        let out = hub.send(#"{"type":"drop","op":"x","x":10,"y":30,"items":[{"kind":"file","value":"a.png"}]}"#, from: 1)
        #expect(errorCode(out, to: 1) == .dropForbidden)
        #expect(hub.sequence == 0)
    }

    @Test func aDropInTheSameCollectionMovesTheItem() throws {
        let (hub, _) = dropHub()
        _ = hub.hello(1)
        // a0 to the right half of a4: after a4 (the gap before a5).
        let out = hub.send(#"{"type":"drop","op":"m","x":200,"y":180,"source":{"collection":"main","item":"a0"}}"#, from: 1)
        #expect(messages(out, to: 1).contains(.ack(op: "m", seq: 1)))
        #expect(Array(hub.model.snapshot.itemIdentifiers(inSection: "a").prefix(6)) == ["a1", "a2", "a3", "a4", "a0", "a5"])
        let b = try #require(batches(out, to: 1).first)
        #expect(b.moves == [[[0, 0], [0, 4]]] && b.inserts.isEmpty && b.deletes.isEmpty)
        // Dropped where it is: acknowledged, nothing changes.
        let here = hub.send(#"{"type":"drop","op":"h","x":160,"y":180,"source":{"collection":"main","item":"a0"}}"#, from: 1)
        #expect(messages(here, to: 1) == [.ack(op: "h", seq: hub.sequence)])
    }

    @Test func itemsMoveBetweenCollectionsOfAGroup() throws {
        let (left, _) = dropHub("left", sections: [("todo", 4)])
        let (right, _) = dropHub("right", sections: [("done", 2)], folders: ["done1"])
        let group = CollectionHubGroup([left, right])
        group.connect(1)
        group.connect(2)
        _ = group.receive(Array(#"{"type":"hello","viewport":{"width":320,"height":400},"collection":"left"}"#.utf8), from: 1)
        let welcome = group.receive(Array(#"{"type":"hello","viewport":{"width":320,"height":400},"collection":"right"}"#.utf8), from: 2)
        guard case .welcome(let w)? = messages(welcome, to: 2).first else { Issue.record("expected welcome"); return }
        #expect(w.sections.map(\.id) == ["done"])
        #expect(group.hub(of: 2) === right)
        // Viewer 2 drags todo2 from the left collection to the start of "done".
        let drop = #"{"type":"drop","op":"x1","x":20,"y":30,"source":{"collection":"left","item":"todo2"}}"#
        let out = group.receive(Array(drop.utf8), from: 2)
        #expect(messages(out, to: 2).contains(.ack(op: "x1", seq: 1)))
        #expect(right.model.snapshot.itemIdentifiers(inSection: "done") == ["todo2", "done0", "done1"])
        #expect(right.model.itemContent["todo2"] == ["title": "todo2"])
        #expect(left.model.snapshot.itemIdentifiers(inSection: "todo") == ["todo0", "todo1", "todo3"])
        #expect(left.sequence == 1 && right.sequence == 1)
        let leftBatch = try #require(batches(out, to: 1).first)
        #expect(leftBatch.deletedIds == ["todo2"] && leftBatch.seq == 1)
        #expect(batches(out, to: 2).first?.insertedIds == ["todo2"])
        // Into the folder from the other collection: the folder counts it, the left loses it.
        // done1 is now third in the first row (x 220…320).
        _ = group.receive(Array(#"{"type":"drop","op":"x2","x":270,"y":70,"source":{"collection":"left","item":"todo0"}}"#.utf8), from: 2)
        #expect(right.model.snapshot.itemIdentifiers(inSection: "done") == ["todo2", "done0", "done1"])
        #expect(right.model.itemContent["done1"]?["count"] == "1")
        #expect(left.model.snapshot.itemIdentifiers(inSection: "todo") == ["todo1", "todo3"])
        #expect(left.model.checkInvariants().isEmpty && right.model.checkInvariants().isEmpty)
    }

    /// Taking an item out of another collection is a move there: that collection's
    /// permissions, the edits it takes and its `canMoveItemAt` decide, for the viewer
    /// dropping (whichever collection it watches).
    @Test func aMoveOutOfAnotherCollectionFollowsThatCollectionsRules() throws {
        let (left, _) = dropHub("left", sections: [("todo", 4)])
        let (right, _) = dropHub("right", sections: [("done", 2)])
        // On the left, anonymous viewers only watch; only Ana may move todo0;
        // "cleo" may not even watch.
        let rules = TestHubDelegate()
        rules.permissions = { $0.user == nil ? [.view, .select] : $0.user == "cleo" ? [] : .all }
        rules.canMove = { hub, indexPath in indexPath.item != 0 || hub.actingViewer?.user == "ana" }
        left.hubDelegate = rules
        let group = CollectionHubGroup([left, right])
        let viewers: [(UInt64, Identity?)] = [(1, nil), (2, Identity(id: "ana", name: "Ana")), (3, Identity(id: "ben", name: "Ben")),
                                              (4, Identity(id: "cleo", name: "Cleo"))]
        for (key, identity) in viewers {
            group.connect(key, identity: identity)
            _ = group.receive(Array(#"{"type":"hello","viewport":{"width":320,"height":400},"collection":"right"}"#.utf8), from: key)
        }
        func drop(_ item: String, op: String, from key: UInt64) -> [Outgoing] {
            group.receive(Array(#"{"type":"drop","op":"\#(op)","x":20,"y":30,"source":{"collection":"left","item":"\#(item)"}}"#.utf8), from: key)
        }
        func hover(_ item: String, from key: UInt64) -> String? {
            proposal(group.receive(Array(#"{"type":"dropUpdate","x":20,"y":30,"source":{"collection":"left","item":"\#(item)"}}"#.utf8), from: key), to: key)?.operation
        }
        // The guest may edit the right but not the left: refused, nothing changes anywhere.
        #expect(hover("todo1", from: 1) == "forbidden")
        let refused = drop("todo1", op: "a1", from: 1)
        #expect(errorCode(refused, to: 1) == .dropForbidden)
        #expect(messages(refused, to: 1).contains { if case .reject(_, _, let m) = $0 { m.hasPrefix("a guest may not edit collection 'left'") } else { false } })
        // Ben may move todo1 but not todo0 (the left's canMoveItemAt, asked with Ben acting).
        #expect(hover("todo0", from: 3) == "forbidden")
        #expect(errorCode(drop("todo0", op: "b1", from: 3), to: 3) == .dropForbidden)
        #expect(left.actingViewer == nil)
        // Cleo may not see the left: not even a copy of its items comes over.
        #expect(errorCode(drop("todo1", op: "c1", from: 4), to: 4) == .forbidden)
        #expect(left.sequence == 0 && right.sequence == 0)
        #expect(left.model.snapshot.itemIdentifiers(inSection: "todo") == ["todo0", "todo1", "todo2", "todo3"])
        // Ana may move todo0: it leaves the left.
        #expect(hover("todo0", from: 2) == "move")
        #expect(messages(drop("todo0", op: "a2", from: 2), to: 2).contains(.ack(op: "a2", seq: 1)))
        #expect(left.model.snapshot.itemIdentifiers(inSection: "todo") == ["todo1", "todo2", "todo3"])
        // A collection that takes no moves from viewers lets nothing be taken out by one.
        left.allowedEdits = [.insert, .delete]
        #expect(errorCode(drop("todo1", op: "a3", from: 2), to: 2) == .dropForbidden)
        #expect(left.model.snapshot.itemIdentifiers(inSection: "todo") == ["todo1", "todo2", "todo3"])
    }

    @Test func badDropsAreRefusedWithReasons() throws {
        let (hub, _) = dropHub()
        _ = hub.hello(1)
        let cases: [(String, ErrorCode)] = [
            (#"{"type":"drop","x":1,"y":1,"source":{"collection":"nowhere","item":"a0"}}"#, .unknownCollection),
            (#"{"type":"drop","x":1,"y":1,"source":{"collection":"main","item":"zz"}}"#, .unknownItem),
            (#"{"type":"drop","x":1,"y":1}"#, .badMessage),
            (#"{"type":"drop","x":1,"y":1,"items":[{"kind":"text","value":"a"}],"source":{"collection":"main","item":"a0"}}"#, .badMessage),
            (#"{"type":"drop","x":1,"y":1,"items":[{"kind":"image","value":"a"}]}"#, .badMessage),
            (#"{"type":"drop","x":1,"y":1,"items":[{"kind":"text"}]}"#, .badMessage),
            (#"{"type":"dropUpdate","x":1,"items":[{"kind":"text"}]}"#, .badMessage),
        ]
        for (text, code) in cases {
            #expect(errorCode(hub.send(text, from: 1), to: 1) == code, "\(text)")
        }
        #expect(hub.sequence == 0)
    }

    @Test func anItemTheDataSourceWillNotMoveCannotBeDropped() throws {
        let (hub, _) = dropHub(immovable: ["a0"])
        _ = hub.hello(1)
        let p = try #require(proposal(hub.send(#"{"type":"dropUpdate","x":200,"y":180,"source":{"collection":"main","item":"a0"}}"#, from: 1), to: 1))
        #expect(p.operation == "forbidden")
        #expect(errorCode(hub.send(#"{"type":"drop","op":"i","x":200,"y":180,"source":{"collection":"main","item":"a0"}}"#, from: 1), to: 1) == .dropForbidden)
        #expect(hub.sequence == 0)
    }

    @Test func helloPicksTheCollection() throws {
        let (a, _) = dropHub("a")
        let (b, _) = dropHub("b")
        let group = CollectionHubGroup([a, b])
        group.connect(1)
        let out = group.receive(Array(#"{"type":"hello","viewport":{"width":320,"height":400},"collection":"c"}"#.utf8), from: 1)
        guard case .error(let code, let message, _)? = messages(out, to: 1).first else { Issue.record("expected error"); return }
        #expect(code == .unknownCollection && message.contains("a, b"))
        #expect(group.hub(of: 1) == nil)
        // No collection named: the first.
        _ = group.receive(Array(#"{"type":"hello","viewport":{"width":320,"height":400}}"#.utf8), from: 1)
        #expect(group.hub(of: 1) === a && a.viewerCount == 1 && b.viewerCount == 0)
        // A second hello for another collection on the same connection is refused.
        let again = group.receive(Array(#"{"type":"hello","viewport":{"width":320,"height":400},"collection":"b"}"#.utf8), from: 1)
        #expect(errorCode(again, to: 1) == .unknownCollection)
        _ = group.disconnect(1)
        #expect(a.viewerCount == 0)
    }
}

/// A drop delegate that drops every item into a placeholder, and commits it at once
/// or keeps the context for later (as an app fetching a link's title would).
private final class PlaceholderDelegate: CollectionViewDropDelegate {
    var commitAtOnce = false
    /// Runs as the drop is performed, before anything is dropped (an app changing its data first).
    var beforeDrop: () -> Void = {}
    var contexts: [any CollectionViewDropPlaceholderContext] = []
    var seenItems: [CollectionViewDropItem] = []
    var settled: [Int] = []

    func collectionView(_ collectionView: CollectionView, dropSessionDidUpdate session: DropSession,
                        withDestinationIndexPath destinationIndexPath: IndexPath?) -> CollectionViewDropProposal {
        CollectionViewDropProposal(operation: session.sourceCollection == nil ? .copy : .move, intent: .insertAtDestinationIndexPath)
    }

    func collectionView(_ collectionView: CollectionView, performDropWith coordinator: any CollectionViewDropCoordinator) {
        seenItems = coordinator.items
        beforeDrop()
        // A local item settles where it was dropped (UIKit's drop(_:toItemAt:)).
        for item in coordinator.items where item.sourceIndexPath != nil {
            coordinator.drop(item.dragItem, toItemAt: item.sourceIndexPath!).addCompletion { self.settled.append($0) }
        }
        for item in coordinator.items {
            let context = coordinator.drop(item.dragItem, to: CollectionViewDropPlaceholder(
                insertionIndexPath: coordinator.destinationIndexPath ?? IndexPath(item: 0, section: 0), reuseIdentifier: "card"))
            if commitAtOnce { Self.commit(context, title: "At once") } else { contexts.append(context) }
        }
    }

    static func commit(_ context: any CollectionViewDropPlaceholderContext, title: String) {
        let model = context as! ModelDropPlaceholderContext
        context.commitInsertion { indexPath in model.insertItem(content: ["title": title], at: indexPath) }
    }
}

@Suite struct DropPlaceholderTests {
    private func hub(_ delegate: PlaceholderDelegate) -> CollectionHub {
        var model = CollectionModel()
        model.snapshot.appendSections(["a"])
        model.snapshot.appendItems((0..<6).map { "a\($0)" }, toSection: "a")
        for i in 0..<6 { model.itemContent["a\(i)"] = ["title": "a\(i)"] }
        let hub = CollectionHub(model: model, factory: SerialItemFactory(), policy: testPolicy())
        hub.dropDelegate = delegate
        return hub
    }

    static let drop = #"{"type":"drop","op":"p1","x":80,"y":60,"items":[{"kind":"url","value":"https://example.org/a"}]}"#

    @Test func aPlaceholderCommittedLaterAnswersTheDropThen() throws {
        let delegate = PlaceholderDelegate()
        let h = hub(delegate)
        _ = h.hello(1)
        _ = h.hello(2)
        _ = h.endTurn()
        // The drop leaves a placeholder: no answer yet, nothing for anyone.
        #expect(h.send(Self.drop, from: 1).isEmpty)
        #expect(h.sequence == 0 && delegate.contexts.count == 1)
        #expect(delegate.seenItems.map(\.sourceIndexPath) == [nil])
        #expect(h.endTurn().isEmpty)
        // The data arrives: the commit is one numbered batch, and the drop's ack.
        PlaceholderDelegate.commit(delegate.contexts[0], title: "Example")
        let out = h.endTurn()
        #expect(messages(out, to: 1).first == .ack(op: "p1", seq: 1))
        for key in [UInt64(1), 2] {
            guard case .batch(let b)? = messages(out, to: key).last else { Issue.record("no batch for \(key)"); return }
            #expect(b.inserts == [[0, 1]] && b.seq == 1)
        }
        let id = try #require(h.model.snapshot.itemIdentifier(at: IndexPath(item: 1, section: 0)))
        #expect(h.model.itemContent[id]?["title"] == "Example")
        // A context is resolved once.
        #expect(!delegate.contexts[0].commitInsertion { _ in } && !delegate.contexts[0].deletePlaceholder())
        // The same op again: its first answer.
        #expect(messages(h.send(Self.drop, from: 1), to: 1) == [.ack(op: "p1", seq: 1)])
    }

    @Test func aPlaceholderCommittedAfterOtherEditsAnswersARetryOfItsDropWithItsAck() {
        let delegate = PlaceholderDelegate()
        let h = hub(delegate)
        _ = h.hello(1)
        _ = h.hello(2)
        #expect(h.send(Self.drop, from: 1).isEmpty)
        // Another viewer's edit is handled while the drop's data is fetched.
        #expect(messages(h.send(#"{"type":"delete","op":"d1","items":["a5"]}"#, from: 2), to: 2).first == .ack(op: "d1", seq: 1))
        PlaceholderDelegate.commit(delegate.contexts[0], title: "Example")
        #expect(messages(h.endTurn(), to: 1).first == .ack(op: "p1", seq: 2))
        // The drop's connection was lost before the ack came: sent again, it gets that
        // ack (it is the drop its op was accepted for), and the edit's retry gets its own.
        #expect(messages(h.send(Self.drop, from: 1), to: 1) == [.ack(op: "p1", seq: 2)])
        #expect(messages(h.send(#"{"type":"delete","op":"d1","items":["a5"]}"#, from: 2), to: 2) == [.ack(op: "d1", seq: 1)])
        #expect(h.sequence == 2)
    }

    @Test func aDropWhoseAppChangesTheCollectionFirstAnswersItsRetryWithItsAck() {
        let delegate = PlaceholderDelegate()
        delegate.commitAtOnce = true
        let h = hub(delegate)
        delegate.beforeDrop = {
            var next = h.model
            next.snapshot.deleteItems(["a5"])
            next.itemContent["a5"] = nil
            #expect((try? h.apply(next)) != nil)
        }
        _ = h.hello(1)
        #expect(messages(h.send(Self.drop, from: 1), to: 1).first == .ack(op: "p1", seq: 2))
        // Sent again (its ack lost with the connection): the same ack, not `op_reused`.
        delegate.beforeDrop = {}
        #expect(messages(h.send(Self.drop, from: 1), to: 1) == [.ack(op: "p1", seq: 2)])
    }

    @Test func aDeletedPlaceholderRejectsTheDropAndChangesNothing() {
        let delegate = PlaceholderDelegate()
        let h = hub(delegate)
        _ = h.hello(1)
        #expect(h.send(Self.drop, from: 1).isEmpty)
        #expect(delegate.contexts[0].deletePlaceholder())
        guard case .reject("p1", .dropCancelled, _)? = messages(h.endTurn(), to: 1).first else { Issue.record("expected drop_cancelled"); return }
        #expect(h.sequence == 0 && h.model.snapshot.numberOfItems == 6)
    }

    @Test func aPlaceholderCommittedDuringTheDropIsAnsweredAtOnce() throws {
        let delegate = PlaceholderDelegate()
        delegate.commitAtOnce = true
        let h = hub(delegate)
        _ = h.hello(1)
        let out = h.send(Self.drop, from: 1)
        #expect(messages(out, to: 1).first == .ack(op: "p1", seq: 1))
        guard case .batch(let b)? = messages(out, to: 1).last else { Issue.record("no batch"); return }
        #expect(b.insertedIds.count == 1 && h.model.itemContent[b.insertedIds[0]]?["title"] == "At once")
        #expect(h.endTurn().isEmpty)
        // A local item carries where it was.
        _ = h.send(#"{"type":"drop","op":"p2","x":80,"y":60,"source":{"collection":"main","item":"a4"}}"#, from: 1)
        #expect(delegate.seenItems.map(\.sourceIndexPath) == [IndexPath(item: 5, section: 0)])
        #expect(delegate.seenItems.first?.dragItem.localObject == "a4")
        // The coordinator's drop(_:toItemAt:) runs its completion (the browser animates).
        #expect(delegate.settled == [0])
    }
}
