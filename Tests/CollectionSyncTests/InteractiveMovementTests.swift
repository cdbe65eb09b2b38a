import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// Interactive movement over the protocol: the mover's collection view makes room
/// live, others see a ghost, and the drop is one numbered edit.
@Suite struct InteractiveMovementTests {
    func windows(_ out: [Outgoing], to key: UInt64) -> [ServerMessage.Window] {
        messages(out, to: key).compactMap { if case .window(let w) = $0 { w } else { nil } }
    }

    func frame(_ window: ServerMessage.Window, _ key: String) -> [Double]? { window.add.first { $0.key == key }?.frame }

    @Test func othersMakeRoomLiveAndTheDropIsOneNumberedMove() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        // 3 columns of 100 wide (step 110), rows 110 apart under a 20-high header.
        let begin = hub.send(#"{"type":"moveBegin","item":"a0"}"#, from: 1)
        // Where, by item too: a watcher with another layout puts the ghost over a0 in its own.
        #expect(messages(begin, to: 2) == [.drag(viewer: "v1", item: "a0", at: Point(x: 50, y: 70), over: DragAnchor(item: "a0", x: 0.5, y: 0.5))])
        #expect(windows(begin, to: 1).first?.animated == true)

        // Over a4's slot (row 1, column 1): a1…a4 each move back one place for viewer 1 only.
        let update = hub.send(#"{"type":"moveUpdate","x":160,"y":180}"#, from: 1)
        let w = try #require(windows(update, to: 1).first)
        #expect(w.animated)
        #expect(frame(w, "i:a1") == [0, 20, 100, 100])
        #expect(frame(w, "i:a4") == [0, 130, 100, 100])
        #expect(frame(w, "i:a0") == [110, 130, 100, 100])   // centred on the pointer
        #expect((w.add.first { $0.key == "i:a0" }?.zIndex ?? 0) > 0)
        // …over a4, whose place it would take.
        #expect(messages(update, to: 2) == [.drag(viewer: "v1", item: "a0", at: Point(x: 160, y: 180), over: DragAnchor(item: "a4", x: 0.5, y: 0.5))])
        #expect(hub.sequence == 0 && hub.model.snapshot.itemIdentifiers(inSection: "a").prefix(2) == ["a0", "a1"])

        let end = hub.send(#"{"type":"moveEnd","op":"drop-1"}"#, from: 1)
        #expect(messages(end, to: 1).contains(.ack(op: "drop-1", seq: 1)))
        #expect(Array(hub.model.snapshot.itemIdentifiers(inSection: "a").prefix(6)) == ["a1", "a2", "a3", "a4", "a0", "a5"])
        let batch = try #require(lastBatch(end, to: 2))
        #expect(batch.moves == [[[0, 0], [0, 4]]])
        #expect(messages(end, to: 2).contains(.drag(viewer: "v1", item: nil, at: Point(x: 160, y: 180))))
        // The mover's window ends with a0 in its slot, not under the pointer.
        let mine = try #require(lastBatch(end, to: 1))
        #expect(mine.elements.first { $0.key == "i:a0" }?.frame == [110, 130, 100, 100])
        #expect(mine.elements.first { $0.key == "i:a0" }?.zIndex == 0)
        // The op is remembered: a retry gets the same ack and changes nothing.
        _ = hub.send(#"{"type":"moveBegin","item":"a1"}"#, from: 1)
        #expect(hub.send(#"{"type":"moveEnd","op":"drop-1"}"#, from: 1) == [Outgoing(viewer: 1, message: .ack(op: "drop-1", seq: 1))])
    }

    @Test func cancelPutsEverythingBackAndADropInPlaceChangesNothing() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.send(#"{"type":"moveBegin","item":"a0"}"#, from: 1)
        _ = hub.send(#"{"type":"moveUpdate","x":160,"y":180}"#, from: 1)
        let cancel = hub.send(#"{"type":"moveCancel"}"#, from: 1)
        let w = try #require(windows(cancel, to: 1).first)
        #expect(frame(w, "i:a1") == [110, 20, 100, 100] && frame(w, "i:a0") == [0, 20, 100, 100])
        #expect(hub.sequence == 0)

        _ = hub.send(#"{"type":"moveBegin","item":"a2"}"#, from: 1)
        _ = hub.send(#"{"type":"moveUpdate","x":260,"y":60}"#, from: 1)
        #expect(messages(hub.send(#"{"type":"moveEnd","op":"same"}"#, from: 1), to: 1).contains(.ack(op: "same", seq: 0)))
        #expect(hub.sequence == 0)
        // Its op is remembered like an edit's (docs/PROTOCOL.md): sent again, the same ack.
        #expect(hub.send(#"{"type":"moveEnd","op":"same"}"#, from: 1) == [Outgoing(viewer: 1, message: .ack(op: "same", seq: 0))])
    }

    @Test func aDropFarOutsideTheItemsPutsTheItemBackAndIsAnswered() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.send(#"{"type":"moveBegin","item":"a1"}"#, from: 1)
        _ = hub.send(#"{"type":"moveUpdate","x":-5000,"y":-5000}"#, from: 1)
        let end = hub.send(#"{"type":"moveEnd","op":"away"}"#, from: 1)
        // The page waits for the op's answer (it says "dropped", or why not): it comes.
        #expect(messages(end, to: 1).contains(.ack(op: "away", seq: 0)))
        let w = try #require(windows(end, to: 1).first)
        #expect(frame(w, "i:a1") == [110, 20, 100, 100])
        #expect(hub.sequence == 0 && Array(hub.model.snapshot.itemIdentifiers(inSection: "a").prefix(2)) == ["a0", "a1"])
        #expect(hub.send(#"{"type":"moveEnd","op":"away"}"#, from: 1) == [Outgoing(viewer: 1, message: .ack(op: "away", seq: 0))])
    }

    @Test func misuseIsAnsweredAndChangesNothing() {
        var model = CollectionModel()
        model.snapshot.appendSections(["a"])
        model.snapshot.appendItems(["x", "pinned"], toSection: "a")
        for id in ["x", "pinned"] { model.itemContent[id] = ["title": id] }
        model.immovableItems = ["pinned"]
        let hub = CollectionHub(model: model, factory: testFactory(), policy: testPolicy())
        _ = hub.hello(1)
        func code(_ out: [Outgoing]) -> ErrorCode? {
            if case .error(let code, _, _)? = out.first?.message { return code }
            if case .reject(_, let code, _)? = out.first?.message { return code }
            return nil
        }
        #expect(code(hub.send(#"{"type":"moveBegin","item":"pinned"}"#, from: 1)) == .notMovable)
        #expect(code(hub.send(#"{"type":"moveBegin","item":"ghost"}"#, from: 1)) == .unknownItem)
        #expect(code(hub.send(#"{"type":"moveUpdate","x":1,"y":1}"#, from: 1)) == .notMoving)
        #expect(code(hub.send(#"{"type":"moveEnd","op":"e"}"#, from: 1)) == .notMoving)
        #expect(hub.send(#"{"type":"moveCancel"}"#, from: 1).isEmpty, "nothing to cancel: nothing said")
        #expect(code(hub.send(#"{"type":"moveUpdate","x":"1","y":1}"#, from: 1)) == .badMessage)
        #expect(hub.sequence == 0 && hub.model.snapshot.itemIdentifiers(inSection: "a") == ["x", "pinned"])
    }

    @Test func anotherViewersEditKeepsTheMoveGoingOrEndsItIfTheItemIsDeleted() throws {
        let hub = makeHub()
        _ = hub.hello(1)
        _ = hub.hello(2)
        _ = hub.send(#"{"type":"moveBegin","item":"a0"}"#, from: 1)
        _ = hub.send(#"{"type":"moveUpdate","x":160,"y":180}"#, from: 1)
        // Viewer 2 deletes a1 meanwhile: the move carries on from the pointer.
        let other = hub.send(#"{"type":"delete","op":"d","items":["a1"]}"#, from: 2)
        #expect(lastBatch(other, to: 1) != nil)
        _ = hub.send(#"{"type":"moveEnd","op":"drop"}"#, from: 1)
        // Without a1, the slot under the pointer is index 4: a0 lands after a5.
        #expect(Array(hub.model.snapshot.itemIdentifiers(inSection: "a").prefix(5)) == ["a2", "a3", "a4", "a5", "a0"])
        #expect(hub.sequence == 2)

        _ = hub.send(#"{"type":"moveBegin","item":"a2"}"#, from: 1)
        let gone = hub.send(#"{"type":"delete","op":"d2","items":["a2"]}"#, from: 2)
        #expect(messages(gone, to: 1).contains { if case .error(.moveCancelled, _, _) = $0 { true } else { false } })
        #expect(messages(gone, to: 2).contains(.drag(viewer: "v1", item: nil, at: Point(x: 50, y: 70))))
        #expect(hub.send(#"{"type":"moveEnd","op":"late"}"#, from: 1)
            == [Outgoing(viewer: 1, message: .reject(op: "late", code: .notMoving, message: "no movement under way; send moveBegin first"))])
        // A cancel that crossed the delete (the page cancels as the item goes): nothing to say.
        _ = hub.send(#"{"type":"moveBegin","item":"a3"}"#, from: 1)
        _ = hub.send(#"{"type":"delete","op":"d3","items":["a3"]}"#, from: 2)
        #expect(hub.send(#"{"type":"moveCancel"}"#, from: 1).isEmpty)
    }
}
