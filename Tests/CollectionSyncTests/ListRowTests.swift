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
