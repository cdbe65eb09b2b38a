import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation
import Testing

/// An inset grouped list, one section per model section.
struct InsetGroupedList: LayoutPolicy {
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) {}
    func makeLayout(for environment: LayoutEnvironment) -> CollectionViewLayout? {
        CollectionViewCompositionalLayout.list(using: CollectionLayoutListConfiguration(appearance: .insetGrouped))
    }
}

/// List rows reach the client with where they sit in their section: their
/// appearance, position and separator, kept right as rows come and go.
@Suite struct ListRowTests {
    @Test func rowsCarryTheirPlaceAndTheLastRowFollowsInserts() throws {
        let hub = makeHub(sections: [("a", 2)])
        hub.policy = InsetGroupedList()
        let welcome = try #require(hub.hello(1, width: 320, height: 400))
        let first = try #require(welcome.elements.first { $0.key == "i:a0" })
        #expect(first.frame == [20, 20, 280, 44])
        #expect(first.content["listAppearance"] == "insetGrouped" && first.content["listPosition"] == "first" && first.content["listSeparator"] == "true")
        let last = try #require(welcome.elements.first { $0.key == "i:a1" })
        #expect(last.content["listPosition"] == "last" && last.content["listSeparator"] == "false")
        // A row added at the end (by the server): a1 is in the middle now, with a separator; its frame did not move.
        var next = hub.model
        next.snapshot.appendItems(["z"], toSection: "a")
        next.itemContent["z"] = ["title": "z"]
        let out = try hub.apply(next)
        let batch = try #require(messages(out, to: 1).compactMap { if case .batch(let b) = $0 { b } else { nil } }.first)
        let a1 = try #require(batch.elements.first { $0.key == "i:a1" })
        #expect(a1.frame == last.frame && a1.content["listPosition"] == "middle" && a1.content["listSeparator"] == "true")
        let added = try #require(batch.elements.first { $0.key == "i:z" })
        #expect(added.content["listPosition"] == "last")
    }
}

/// A list whose rows reveal Delete (and, past the first row, Flag) from the trailing edge.
final class SwipeLog: @unchecked Sendable {
    var performed: [String] = []
}

struct SwipeList: LayoutPolicy {
    let log: SwipeLog
    func configure(_ layout: CollectionViewFlowLayout, for size: Size) {}
    func makeLayout(for environment: LayoutEnvironment) -> CollectionViewLayout? {
        var configuration = CollectionLayoutListConfiguration(appearance: .plain)
        let log = log
        configuration.trailingSwipeActionsConfigurationProvider = { indexPath in
            var actions = [ContextualAction(style: .destructive, title: "Delete") { _, _, done in log.performed.append("delete \(indexPath.item)"); done(true) }]
            if indexPath.item > 0 {
                // The view it is chosen from is the row's cell in the viewer's collection view.
                let flag = ContextualAction(style: .normal, title: "Flag") { _, source, done in
                    let cell = (source as? CollectionViewCell)?.layoutAttributes?.indexPath.item
                    log.performed.append("flag \(indexPath.item) from cell \(cell.map(String.init) ?? "none")")
                    done(true)
                }
                flag.backgroundColor = "#f0a400"
                flag.image = Image(systemName: "flag.fill")
                actions.append(flag)
            }
            return SwipeActionsConfiguration(actions: actions)
        }
        return CollectionViewCompositionalLayout.list(using: configuration)
    }
}

@Suite struct SwipeActionTests {
    @Test func aSwipeRevealsTheProvidersActionsAndPerformsOne() throws {
        let log = SwipeLog()
        let hub = makeHub(sections: [("a", 3)])
        hub.policy = SwipeList(log: log)
        _ = hub.hello(1)
        #expect(messages(hub.send(#"{"type":"swipeActions","item":"a1","edge":"trailing"}"#, from: 1), to: 1) == [
            .swipeActions(item: "a1", edge: "trailing", actions: [SwipeActionInfo(title: "Delete", style: "destructive"),
                                                                   SwipeActionInfo(title: "Flag", style: "normal", color: "#f0a400", image: "system:flag.fill")], fullSwipe: true)])
        // No leading actions: nothing to reveal.
        #expect(messages(hub.send(#"{"type":"swipeActions","item":"a1","edge":"leading"}"#, from: 1), to: 1) == [
            .swipeActions(item: "a1", edge: "leading", actions: [], fullSwipe: false)])
        #expect(hub.send(#"{"type":"swipeAction","item":"a2","edge":"trailing","index":1}"#, from: 1).isEmpty)
        #expect(log.performed == ["flag 2 from cell 2"])
        let out = hub.send(#"{"type":"swipeAction","item":"a0","edge":"trailing","index":1}"#, from: 1)
        guard case .error(.badMessage, let why, _)? = messages(out, to: 1).first else { Issue.record("expected bad_message"); return }
        #expect(why == "item 'a0' has 1 trailing swipe action; there is none at index 1")
        guard case .error(.unknownItem, _, _)? = messages(hub.send(#"{"type":"swipeActions","item":"zz","edge":"trailing"}"#, from: 1), to: 1).first else {
            Issue.record("expected unknown_item")
            return
        }
        #expect(log.performed == ["flag 2 from cell 2"])
    }
}
