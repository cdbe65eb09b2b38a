import CollectionCore
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Testing

/// Drags out of a collection through the protocol: `dragBegin`, `dragAdd`,
/// `dragEnd`, and drops that name the session; the drag delegate decides.
@Suite struct DragSessionTests {
    /// A drag delegate that refuses some items, may forbid moving, and logs.
    final class Rules: CollectionViewDragDelegate {
        var refused: Set<String> = []
        var allowsMove = true
        var log: [String] = []
        func collectionView(_ collectionView: CollectionView, itemsForBeginning session: DragSession, at indexPath: IndexPath) -> [DragItem] {
            let id = "todo\(indexPath.item)"
            return refused.contains(id) ? [] : [DragItem(local: id, from: "left", content: ["title": id.uppercased()])]
        }
        func collectionView(_ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint) -> [DragItem] {
            [DragItem(local: "todo\(indexPath.item)", from: "left", content: ["title": "ADDED"])]
        }
        func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: DragSession) { log.append("begin") }
        func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: DragSession) { log.append("end \(session.items.count)") }
        func collectionView(_ collectionView: CollectionView, dragSessionAllowsMoveOperation session: DragSession) -> Bool { allowsMove }
    }

    func hub(_ name: String, _ section: String, _ count: Int) -> CollectionHub {
        var model = CollectionModel()
        model.snapshot.appendSections([section])
        let items = (0..<count).map { "\(section)\($0)" }
        model.snapshot.appendItems(items, toSection: section)
        for item in items { model.itemContent[item] = ["title": item] }
        let hub = CollectionHub(model: model, factory: SerialItemFactory(prefix: "\(name)-"), policy: testPolicy(), name: name)
        hub.dropDelegate = ModelDropDelegate(acceptedKinds: [])
        return hub
    }

    /// Viewer 1 watches "left" (todo0-3), viewer 2 "right" (done0-1).
    func group() -> (CollectionHubGroup, CollectionHub, CollectionHub) {
        let left = hub("left", "todo", 4), right = hub("right", "done", 2)
        let group = CollectionHubGroup([left, right])
        for (key, name) in [(UInt64(1), "left"), (2, "right")] {
            group.connect(key)
            _ = group.receive(Array(#"{"type":"hello","viewport":{"width":320,"height":400},"collection":"\#(name)"}"#.utf8), from: key)
        }
        return (group, left, right)
    }

    func send(_ group: CollectionHubGroup, _ text: String, from key: UInt64) -> [ServerMessage] {
        messages(group.receive(Array(text.utf8), from: key), to: key)
    }

    @Test func aDragCarriesWhatWasLiftedAndAddedAndTheDropMovesItAll() throws {
        let (group, left, right) = group()
        #expect(send(group, #"{"type":"dragBegin","item":"todo1","x":150,"y":60}"#, from: 1) == [.dragSession(id: "v1-1", items: ["todo1"], allowsMove: true)])
        #expect(send(group, #"{"type":"dragAdd","item":"todo3","x":40,"y":170}"#, from: 1) == [.dragSession(id: "v1-1", items: ["todo1", "todo3"], allowsMove: true)])
        // Added twice: carried once.
        #expect(send(group, #"{"type":"dragAdd","item":"todo3","x":40,"y":170}"#, from: 1) == [.dragSession(id: "v1-1", items: ["todo1", "todo3"], allowsMove: true)])
        // Viewer 2 drops them at the start of "done": both move, out of "left" in one batch.
        let out = group.receive(Array(#"{"type":"drop","op":"d","x":20,"y":30,"source":{"collection":"left","item":"todo1","session":"v1-1"}}"#.utf8), from: 2)
        #expect(messages(out, to: 2).contains(.ack(op: "d", seq: 1)))
        #expect(right.model.snapshot.itemIdentifiers(inSection: "done") == ["todo1", "todo3", "done0", "done1"])
        #expect(left.model.snapshot.itemIdentifiers(inSection: "todo") == ["todo0", "todo2"])
        let deletes = messages(out, to: 1).compactMap { if case .batch(let b) = $0 { b.deletedIds } else { nil } }
        #expect(deletes == [["todo1", "todo3"]])
        // The drag ended: its session no longer carries anything.
        #expect(send(group, #"{"type":"dragEnd"}"#, from: 1).isEmpty)
        let late = send(group, #"{"type":"drop","op":"e","x":20,"y":30,"source":{"collection":"left","item":"todo0","session":"v1-1"}}"#, from: 2)
        guard case .reject("e", .dropForbidden, let why)? = late.first else { Issue.record("expected drop_forbidden: \(late)"); return }
        #expect(why.contains("session 'v1-1' ended"))
    }

    @Test func theDragDelegateDecidesWhatIsDraggedAndWhetherItMoves() throws {
        let (group, left, right) = group()
        let rules = Rules()
        rules.refused = ["todo0"]
        rules.allowsMove = false
        left.dragDelegate = rules
        guard case .error(.notDraggable, _, _)? = send(group, #"{"type":"dragBegin","item":"todo0","x":50,"y":60}"#, from: 1).first else {
            Issue.record("todo0 should not be draggable")
            return
        }
        guard case .error(.notDraggable, _, _)? = send(group, #"{"type":"dragAdd","item":"todo2","x":50,"y":60}"#, from: 1).first else {
            Issue.record("nothing to add to")
            return
        }
        guard case .error(.unknownItem, _, _)? = send(group, #"{"type":"dragBegin","item":"nope","x":50,"y":60}"#, from: 1).first else {
            Issue.record("unknown item")
            return
        }
        #expect(send(group, #"{"type":"dragBegin","item":"todo2","x":50,"y":60}"#, from: 1) == [.dragSession(id: "v1-1", items: ["todo2"], allowsMove: false)])
        // A copy-only drag: the proposal is a copy, and the drop leaves todo2 where it was.
        let hovering = send(group, #"{"type":"dropUpdate","x":20,"y":30,"source":{"collection":"left","item":"todo2","session":"v1-1"}}"#, from: 2)
        guard case .dropProposal(let p)? = hovering.first else { Issue.record("no proposal"); return }
        #expect(p.operation == "copy")
        _ = group.receive(Array(#"{"type":"drop","op":"c","x":20,"y":30,"source":{"collection":"left","item":"todo2","session":"v1-1"}}"#.utf8), from: 2)
        #expect(left.model.snapshot.itemIdentifiers(inSection: "todo") == ["todo0", "todo1", "todo2", "todo3"])
        let copied = try #require(right.model.snapshot.itemIdentifiers(inSection: "done").first)
        #expect(copied != "todo2" && right.model.itemContent[copied]?["title"] == "TODO2")
        // Leaving ends the drag, and the delegate hears it.
        _ = group.disconnect(1)
        #expect(rules.log == ["begin", "end 1"])
    }
}
