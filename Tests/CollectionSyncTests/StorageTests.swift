import CollectionCore
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import Testing

/// A random model change: deletes, inserts, moves within and across sections,
/// sections added, removed and reordered, content and templates changed.
func randomChange(of model: CollectionModel, using rng: inout SplitMix64, serial: inout Int) -> CollectionModel {
    var next = model
    var sections = next.snapshot.sectionIdentifiers
    if Int.random(in: 0..<6, using: &rng) == 0, sections.count > 1 {
        // Sections move, one goes, one comes.
        sections.shuffle(using: &rng)
        let gone = sections.removeLast()
        let fresh = "s\(serial)"
        serial += 1
        sections.insert(fresh, at: Int.random(in: 0...sections.count, using: &rng))
        var snapshot = Snapshot<String, String>()
        snapshot.appendSections(sections)
        for id in sections where id != fresh { snapshot.appendItems(model.snapshot.itemIdentifiers(inSection: id), toSection: id) }
        let items = (0..<Int.random(in: 0..<4, using: &rng)).map { _ in serial += 1; return "n\(serial)" }
        snapshot.appendItems(items, toSection: fresh)
        for id in items { next.itemContent[id] = ["title": id] }
        for id in model.snapshot.itemIdentifiers(inSection: gone) {
            next.itemContent[id] = nil
            next.itemReuseIdentifiers[id] = nil
        }
        next.snapshot = snapshot
        next.sectionTitles[fresh] = fresh.uppercased()
        next.sectionTitles[gone] = nil
    }
    for _ in 0..<Int.random(in: 1..<6, using: &rng) {
        let ids = next.snapshot.itemIdentifiers
        let sections = next.snapshot.sectionIdentifiers
        guard let section = sections.randomElement(using: &rng) else { break }
        switch Int.random(in: 0..<5, using: &rng) {
        case 0 where !ids.isEmpty:
            let id = ids.randomElement(using: &rng)!
            next.snapshot.deleteItems([id])
            next.itemContent[id] = nil
            next.itemReuseIdentifiers[id] = nil
        case 1:
            serial += 1
            let id = "n\(serial)"
            next.snapshot.insertItems([id], at: Int.random(in: 0...next.snapshot.numberOfItems(inSection: section), using: &rng), inSection: section)
            next.itemContent[id] = ["title": id]
        case 2 where !ids.isEmpty:
            let id = ids.randomElement(using: &rng)!
            next.snapshot.deleteItems([id])
            next.snapshot.insertItems([id], at: Int.random(in: 0...next.snapshot.numberOfItems(inSection: section), using: &rng), inSection: section)
        case 3 where !ids.isEmpty:
            let id = ids.randomElement(using: &rng)!
            next.itemContent[id, default: [:]]["version"] = String(serial)
            serial += 1
            if Bool.random(using: &rng) { next.itemReuseIdentifiers[id] = Bool.random(using: &rng) ? "wide" : nil }
        default:
            var items = next.snapshot.itemIdentifiers(inSection: section)
            items.shuffle(using: &rng)
            next.snapshot.setItems(items, inSection: section)
        }
    }
    if Int.random(in: 0..<10, using: &rng) == 0 { next.cellReuseIdentifier = "cell\(serial)" }
    if Int.random(in: 0..<10, using: &rng) == 0, let id = next.snapshot.itemIdentifiers.first { next.immovableItems = [id] }
    return next
}

@Suite struct ModelDeltaTests {
    /// DifferenceKit's habit: every delta is applied, and must give the target.
    @Test func aDeltaAppliedToTheModelBeforeGivesTheModelAfter() throws {
        var rng = SplitMix64(seed: 42)
        var serial = 0
        var model = makeHub(sections: [("a", 8), ("b", 3), ("c", 0)]).model
        var sizes = 0
        for round in 0..<2_000 {
            let next = randomChange(of: model, using: &rng, serial: &serial)
            let batch = BatchUpdate(from: model.snapshot, to: next.snapshot)
            let delta = ModelDelta(from: model, to: next, batch: batch)
            let applied = delta.applied(to: model)
            #expect(applied == next, "round \(round): \(delta)")
            if applied != next { return }
            // And through the encoding a store keeps, written as Codable would write it.
            let committed = CommittedBatch(
                collection: "c", seq: round + 1, op: round % 3 == 0 ? nil : "op-\(round)", fingerprint: UInt64.random(in: 0...UInt64.max, using: &rng),
                by: "v\(round % 4)", delta: delta,
                replay: LoggedBatch(seq: round + 1, by: "v1", deletes: batch.deletedItems, deletedIds: batch.deletedItems.compactMap { model.snapshot.itemIdentifier(at: $0) },
                                    inserts: batch.insertedItems, insertedIds: batch.insertedItems.compactMap { next.snapshot.itemIdentifier(at: $0) },
                                    moves: batch.movedItems.map { ($0.from, $0.to) }, reloads: [], sections: next.sectionInfos),
                nextSerial: serial)
            #expect(try JSONDecoder().decode(CommittedBatch.self, from: committed.json) == committed)
            #expect(try jsonObject(committed.json) == jsonObject(JSONEncoder().encode(committed)))
            sizes += delta.placed.count + delta.removed.count
            model = next
        }
        #expect(sizes > 2_000)
    }

    @Test func aBatchWithAwkwardTextIsWrittenAsCodableWritesIt() throws {
        var delta = ModelDelta()
        delta.content = ["a\"1": ["title": "line\nbreak \"quoted\" back\\slash \u{1} é 🎞 </script>", "": ""]]
        delta.titles = ["s": "tab\there"]
        delta.immovable = []
        delta.cellTemplate = "tpl/card"
        delta.headerTemplate = ""
        delta.sections = ["s"]
        let batch = CommittedBatch(collection: "c/é", seq: 1, op: "op\"7", fingerprint: .max, by: "server", delta: delta,
                                   replay: LoggedBatch(seq: 1, by: "server", deletes: [], deletedIds: [], inserts: [], insertedIds: [], moves: [], reloads: [], sections: []),
                                   nextSerial: 0)
        #expect(try JSONDecoder().decode(CommittedBatch.self, from: batch.json) == batch)
        #expect(try jsonObject(batch.json) == jsonObject(JSONEncoder().encode(batch)))
    }

    @Test func aMoveInALargeSectionIsOneRemovalAndOnePlacement() {
        let hub = makeHub(sections: [("a", 20_000)])
        var next = hub.model
        next.snapshot.deleteItems(["a10"])
        next.snapshot.insertItems(["a10"], at: 15_000, inSection: "a")
        let delta = ModelDelta(from: hub.model, to: next, batch: BatchUpdate(from: hub.model.snapshot, to: next.snapshot), changedContent: [])
        #expect(delta.removed == ["a10"])
        #expect(delta.placed == [.init(section: "a", index: 15_000, item: "a10")])
        #expect(delta.content.isEmpty && delta.sections == nil)
        #expect(delta.applied(to: hub.model) == next)
    }

    @Test func aModelSurvivesItsEncoding() throws {
        var model = makeHub(sections: [("a", 3), ("b", 2)]).model
        model.itemReuseIdentifiers["a1"] = "wide"
        model.immovableItems = ["b0"]
        model.cellReuseIdentifier = "tpl-card"
        let decoded = try JSONDecoder().decode(CollectionModel.self, from: JSONEncoder().encode(model))
        #expect(decoded == model)
        let twice = #"{"sections":[{"id":"a","items":["x","x"]}],"content":{},"titles":{},"cellTemplate":"c","headerTemplate":"h","immovable":[],"reuse":{}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CollectionModel.self, from: Data(twice.utf8)) }
    }
}

@Suite struct HubStorageTests {
    @Test func aRestoredHubResumesTheSameHistoryAndRemembersItsOps() throws {
        let store = InMemoryCollectionStore()
        let first = try JournaledHub(makeHub(), store: store)
        let welcome = try #require(first.hub.hello(1))
        _ = try first.send(#"{"type":"insert","op":"i1","section":"a","count":2}"#, from: 1)
        _ = try first.send(#"{"type":"delete","op":"d1","items":["b3"]}"#, from: 1)
        _ = try first.send(#"{"type":"move","op":"m1","item":"a0","section":"b","after":"b5"}"#, from: 1)
        _ = try first.send(#"{"type":"reload","op":"r1","items":["a4"]}"#, from: 1)
        #expect(store.transactions == 4)

        // A new process: the same store, a hub made from scratch.
        let second = try JournaledHub(makeHub(), store: store)
        #expect(second.hub.model == first.hub.model)
        #expect(second.hub.sequence == 4 && second.hub.epoch == first.hub.epoch)
        #expect(second.hub.load(makeHub().model) == false)
        // A viewer that saw batch 1 resumes: batches 2-4, not a reload.
        let out = messages(ResumeTests().hello(second.hub, 7, lastSeq: 1, epoch: welcome.epoch), to: 7)
        guard case .resume(let resume) = out.first else { Issue.record("expected resume, got \(out)"); return }
        #expect(resume.fromSeq == 1 && resume.seq == 4)
        let replayed = out.compactMap { if case .batch(let b) = $0 { b.seq } else { nil } }
        #expect(replayed == [2, 3, 4])
        // The edit resent after the restart is answered, not applied again.
        let again = try second.send(#"{"type":"delete","op":"d1","items":["b3"]}"#, from: 7)
        #expect(messages(again, to: 7) == [.ack(op: "d1", seq: 2)])
        let reused = try second.send(#"{"type":"delete","op":"d1","items":["b4"]}"#, from: 7)
        #expect(messages(reused, to: 7).first.map { if case .reject(_, .opReused, _) = $0 { true } else { false } } == true)
        #expect(second.hub.sequence == 4)
        // Inserted ids are not reused after the restart.
        _ = try second.send(#"{"type":"insert","op":"i2","section":"a","count":1}"#, from: 7)
        #expect(Set(second.hub.model.snapshot.itemIdentifiers).count == second.hub.model.snapshot.numberOfItems)
        #expect(second.hub.model.checkInvariants().isEmpty)
    }

    @Test func anEditTheStoreCannotKeepIsRejectedAndChangesNothing() throws {
        let store = InMemoryCollectionStore()
        let journaled = try JournaledHub(makeHub(), store: store)
        _ = journaled.hub.hello(1)
        _ = journaled.hub.hello(2)
        let before = journaled.hub.model
        store.setFailure(StoreError(.full, "the disk is full"))
        let out = try journaled.send(#"{"type":"delete","op":"d1","items":["a3"]}"#, from: 1)
        #expect(messages(out, to: 1) == [.reject(op: "d1", code: .storageUnavailable, message: "the disk is full")])
        #expect(messages(out, to: 2).isEmpty)
        #expect(journaled.hub.model == before && journaled.hub.sequence == 0)
        // Viewers keep watching: scrolling still answers.
        let scrolled = journaled.hub.send(#"{"type":"scroll","offset":{"x":0,"y":300}}"#, from: 2)
        #expect(messages(scrolled, to: 2).count == 1)
        // Once there is room, the same edit goes through.
        store.setFailure(nil)
        let retried = try journaled.send(#"{"type":"delete","op":"d1","items":["a3"]}"#, from: 1)
        #expect(messages(retried, to: 1).first == .ack(op: "d1", seq: 1))
    }

    @Test func fingerprintsAreTheSameInEveryProcess() {
        // FNV-1a of the message's description: a constant, not a seeded hash.
        let message = ClientMessage.edit(EditRequest(op: "x", action: .delete(items: ["a"])))
        let a = CollectionLedger.stableFingerprint(of: message)
        #expect(a == CollectionLedger.stableFingerprint(of: message))
        #expect(a != CollectionLedger.stableFingerprint(of: .edit(EditRequest(op: "x", action: .delete(items: ["b"])))))
        #expect(a != 0)
    }
}

/// JSON as Foundation's objects, to compare two encodings regardless of member order.
func jsonObject(_ data: Data) throws -> NSDictionary {
    try #require(JSONSerialization.jsonObject(with: data) as? NSDictionary)
}
