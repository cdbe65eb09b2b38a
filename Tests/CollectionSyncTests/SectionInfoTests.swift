import CollectionCore
import CollectionProtocol
import CollectionSync
import Testing

/// The sections' ids, counts, titles and order checksums a hub sends (welcomes,
/// batches) and checks batches of other servers against: always the model's.
@Suite struct SectionInfoTests {
    @Test func aSectionDeletedAndMadeAgainEmptyCountsNothing() throws {
        let hub = makeHub(sections: [("a", 3), ("b", 3)])
        var next = hub.model
        next.snapshot.deleteSections(["b"])
        for id in hub.model.snapshot.itemIdentifiers(inSection: "b") { next.itemContent[id] = nil }
        _ = try hub.apply(next)
        #expect(try #require(hub.hello(1)).sections == hub.model.sectionInfos)
        var again = hub.model
        again.snapshot.appendSections(["b"])
        _ = try hub.apply(again)
        // What a viewer joining now is told.
        let sections = try #require(hub.hello(2)).sections
        #expect(sections.map(\.count) == [3, 0])
        #expect(sections == hub.model.sectionInfos)
    }

    @Test func aRetitledSectionIsSentWithItsNewTitle() throws {
        let hub = makeHub(sections: [("a", 3), ("b", 3)])
        var next = hub.model
        next.sectionTitles["b"] = "Later"
        _ = try hub.apply(next)
        let sections = try #require(hub.hello(1)).sections
        #expect(sections.last?.title == "Later")
        #expect(sections == hub.model.sectionInfos)
    }

    /// A hub whose journal keeps what it commits.
    final class Journal: CollectionHubJournal {
        var batches: [CommittedBatch] = []
        func hub(_ hub: CollectionHub, stage batch: CommittedBatch) throws(ProtocolError) { batches.append(batch) }
    }

    func journaled(_ hub: CollectionHub) -> Journal {
        let journal = Journal()
        hub.journal = journal
        return journal
    }

    /// Another server's batch is taken up when it gives the sections it recorded,
    /// and refused, changing nothing, when this hub's model differs, in a section the
    /// batch changed or in one it left alone.
    @Test func batchesOfAnotherServerAreCheckedSectionBySection() throws {
        let origin = makeHub(sections: [("a", 20), ("b", 20)])
        let journal = journaled(origin)
        var next = origin.model
        let a = next.snapshot.itemIdentifiers(inSection: "a")
        next.snapshot.moveItem(a[2], to: 15, inSection: "a")
        _ = try origin.apply(next)
        let batch = try #require(journal.batches.first)

        let same = makeHub(sections: [("a", 20), ("b", 20)])
        _ = try same.nodes.applyCommitted(batch)
        #expect(same.sequence == 1 && same.model.snapshot.itemIdentifiers == origin.model.snapshot.itemIdentifiers)
        // Both tell a viewer joining now the sections as the model has them.
        for hub in [origin, same] { #expect(try #require(hub.hello(9)).sections == hub.model.sectionInfos) }

        for (section, index) in [("a", 10), ("b", 4)] {
            let diverged = makeHub(sections: [("a", 20), ("b", 20)])
            var other = diverged.model
            let ids = other.snapshot.itemIdentifiers(inSection: section)
            other.snapshot.moveItem(ids[index], to: index + 3, inSection: section)
            #expect(diverged.load(other))
            let before = diverged.model
            #expect(throws: ProtocolError.self) { try diverged.nodes.applyCommitted(batch) }
            #expect(diverged.sequence == 0 && diverged.model == before)
        }
    }
}
