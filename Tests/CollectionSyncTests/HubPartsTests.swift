import CollectionCore
import CollectionProtocol
import CollectionSync
import CollectionTesting
import Foundation
import Testing

/// The hub's history (its number, its log for resumes, its ops), alone.
struct BatchHistoryTests {
    private func batch(_ seq: Int) -> LoggedBatch {
        LoggedBatch(seq: seq, by: "v1", deletes: [], deletedIds: [], inserts: [], insertedIds: [], moves: [], reloads: [], sections: [])
    }

    @Test func aRetryOfAnAcceptedEditIsAnsweredAndAnotherEditUnderItsOpIsRefused() throws {
        var history = BatchHistory(epoch: "e1", limits: HubLimits())
        #expect(try history.retry(of: "op1", fingerprint: 7) == nil)
        history.append(batch(1), op: "op1", fingerprint: 7)
        history.append(batch(2), op: nil, fingerprint: 0)
        #expect(history.sequence == 2)
        #expect(try history.retry(of: "op1", fingerprint: 7) == 1)
        #expect(throws: ProtocolError.self) { try history.retry(of: "op1", fingerprint: 8) }
        do {
            _ = try history.retry(of: "op1", fingerprint: 8)
        } catch {
            #expect(error.code == .opReused)
            #expect(error.message.contains("batch 1"))
        }
    }

    @Test func aResumeGetsTheBatchesAfterItsOwnOfThisEpochOnly() {
        var history = BatchHistory(epoch: "e1", limits: HubLimits())
        for seq in 1...5 { history.append(batch(seq), op: nil, fingerprint: 0) }
        #expect(history.batches(after: 3, of: "e1")?.map(\.seq) == [4, 5])
        #expect(history.batches(after: 5, of: "e1")?.isEmpty == true)
        #expect(history.batches(after: 3, of: "e0") == nil)
        #expect(history.batches(after: 3, of: nil) == nil)
    }

    @Test func newLimitsEmptyTheLogAndOpsButKeepTheNumberAndEpoch() throws {
        var history = BatchHistory(epoch: "e1", limits: HubLimits())
        history.append(batch(1), op: "op1", fingerprint: 7)
        var limits = HubLimits()
        limits.rememberedOps = 4
        history.keep(limits)
        #expect(history.sequence == 1 && history.epoch == "e1")
        #expect(try history.retry(of: "op1", fingerprint: 7) == nil)
        #expect(history.rememberedOps == 0)
    }

    @Test func aRestoredHistoryAnswersRetriesOfTheStoresOps() throws {
        var history = BatchHistory(epoch: "e1", limits: HubLimits())
        let recent = (8...10).map { seq in
            CommittedBatch(collection: "c", seq: seq, op: "op\(seq)", fingerprint: UInt64(seq), by: "v1",
                           delta: ModelDelta(), replay: batch(seq), nextSerial: 1)
        }
        history.restore(epoch: "e9", sequence: 10, recent: recent, limits: HubLimits())
        #expect(history.epoch == "e9" && history.sequence == 10)
        #expect(try history.retry(of: "op9", fingerprint: 9) == 9)
        #expect(history.batches(after: 8, of: "e9")?.map(\.seq) == [9, 10])
    }
}

/// A viewer's edit made on a copy of the model, alone: what it changes, and what it refuses.
struct ViewerEditTests {
    private func model() -> CollectionModel { twoSections() }

    private func edit(_ action: EditAction, maxItems: Int = 100, serial: inout Int) throws(ProtocolError) -> ViewerEdit {
        var random = SplitMix64(seed: 1)
        return try ViewerEdit(action, on: model(), factory: SerialItemFactory(), serial: &serial, random: &random, maxItems: maxItems)
    }

    @Test func anInsertMakesNumberedItemsFirstInItsSectionAndAdvancesTheSerial() throws {
        var serial = 5
        let made = try edit(.insert(section: "b", count: 2), serial: &serial)
        #expect(made.next.snapshot.itemIdentifiers(inSection: "b") == ["n5", "n6", "b1"])
        #expect(Set(made.inserted) == ["n5", "n6"] && serial == 7)
        #expect(made.next.itemContent["n5"] == ["title": "New 5"])
        #expect(made.next.checkInvariants().isEmpty)
    }

    @Test func aMoveSaysWhereFromAndWhereTo() throws {
        var serial = 1
        let made = try edit(.move(item: "a1", section: "b", after: "b1"), serial: &serial)
        #expect(made.next.snapshot.itemIdentifiers(inSection: "b") == ["b1", "a1"])
        #expect(made.moved?.from == IndexPath(item: 0, section: 0) && made.moved?.to == IndexPath(item: 1, section: 1))
        #expect(made.next.checkInvariants().isEmpty)
    }

    @Test func refusalsSayWhyAndChangeNothing() {
        let cases: [(EditAction, Int, ErrorCode, String)] = [
            (.insert(section: "a", count: 2), 5, .refused, "would pass the limit of 5"),
            (.insert(section: "z", count: 1), 100, .unknownSection, "no section with id 'z'"),
            (.delete(items: ["a1", "a1"]), 100, .badMessage, "names an item twice"),
            (.delete(items: ["zz"]), 100, .unknownItem, "no item with id 'zz'"),
            (.move(item: "a1", section: "a", after: "a1"), 100, .badMessage, "cannot move after itself"),
            (.move(item: "a1", section: "a", after: "b1"), 100, .badMessage, "is not in section 'a'"),
        ]
        for (action, maxItems, code, words) in cases {
            var serial = 1
            do {
                _ = try edit(action, maxItems: maxItems, serial: &serial)
                Issue.record("\(action) was made")
            } catch {
                #expect(error.code == code, "\(action)")
                #expect(error.message.contains(words), "\(action): \(error.message)")
                #expect(serial == 1, "\(action) took a serial")
            }
        }
    }

    @Test func aShuffleIsTheSameForTheSameSeedAndKeepsTheItems() throws {
        var serial = 1
        let one = try edit(.shuffle(section: "a"), serial: &serial)
        let two = try edit(.shuffle(section: "a"), serial: &serial)
        #expect(one.next == two.next)
        #expect(Set(one.next.snapshot.itemIdentifiers(inSection: "a")) == ["a1", "a2", "a3"])
    }
}

/// The sections' infos kept from batch to batch, alone: only what changed is hashed again.
struct SectionInfoCacheTests {
    private func model() -> CollectionModel {
        var model = CollectionModel()
        model.snapshot.appendSections(["a", "b", "c"])
        model.snapshot.appendItems(["a1", "a2"], toSection: "a")
        model.snapshot.appendItems(["b1"], toSection: "b")
        return model
    }

    @Test func onlyTheSectionsABatchChangedAreHashedAgainAndTheRestAreKept() {
        let before = model()
        var cache = SectionInfoCache(before)
        #expect(cache.infos(of: before) == before.sectionInfos)
        var next = before
        next.snapshot.appendItems(["a3"], toSection: "a")   // changes a
        next.sectionTitles["c"] = "Sea"                     // retitles c
        next.snapshot.deleteSections(["b"])
        next.snapshot.appendSections(["d"])                  // new
        let changed = cache.changes(from: before, to: next)
        #expect(Set(changed.keys) == ["a", "c", "d"])
        #expect(cache.infos(of: next, changed: changed) == next.sectionInfos)
        cache.update(changed, removing: ["b"])
        #expect(cache.infos(of: next) == next.sectionInfos)
        // Nothing changed: nothing is hashed.
        #expect(cache.changes(from: next, to: next).isEmpty)
    }

    @Test func aResetTakesEverySectionOfTheNewContents() {
        var cache = SectionInfoCache(model())
        var other = CollectionModel()
        other.snapshot.appendSections(["x"])
        other.snapshot.appendItems(["x1"], toSection: "x")
        cache.reset(to: other)
        #expect(cache.infos(of: other) == other.sectionInfos)
        #expect(cache.changes(from: other, to: other).isEmpty)
    }
}

/// A change of the model as its numbered batch, alone: the update, the record, what viewers share.
struct NumberedBatchTests {
    private func model() -> CollectionModel { twoSections() }

    @Test func theBatchRecordsTheChangeByIdentifierAndApplyingItGivesTheNextContents() throws {
        let before = model()
        var next = before
        next.snapshot.deleteItems(["a2"])
        next.itemContent["a2"] = nil
        next.snapshot.insertItems(["b0"], beforeItem: "b1")
        next.itemContent["b0"] = ["title": "b0"]
        next.snapshot.moveItem("a1", afterItem: "a3")
        next.itemReuseIdentifiers["a2"] = "gone"
        var after = next
        let numbered = try NumberedBatch(from: before, to: &after, reloading: ["a3"], reconfiguring: ["a3", "b1", "a2"],
                                         seq: 7, by: "v1", sections: next.sectionInfos)
        #expect(numbered.logged.seq == 7 && numbered.logged.by == "v1")
        #expect(numbered.logged.deletedIds == ["a2"] && numbered.logged.insertedIds == ["b0"])
        #expect(numbered.deletedIds == [IndexPath(item: 1, section: 0): "a2"])
        // a3 is reloaded, so not reconfigured; a2 is gone, so neither.
        #expect(numbered.update.reloadedItems == [IndexPath(item: 2, section: 0)])
        #expect(numbered.update.reconfiguredItems == [IndexPath(item: 0, section: 1)])
        #expect(after.itemReuseIdentifiers["a2"] == nil)
        #expect(numbered.checkedItems != nil)
        // The item changes, applied to the identifiers before, give the identifiers after.
        var ids = before.snapshot.sectionIdentifiers.map { before.snapshot.itemIdentifiers(inSection: $0) }
        ids = numbered.itemUpdates.applied(to: ids, countsAfter: next.snapshot.sectionCounts,
                                           insertedItem: { next.snapshot.itemIdentifier(at: $0) ?? "?" }, insertedSection: { _ in [] })
        #expect(ids == next.snapshot.sectionIdentifiers.map { next.snapshot.itemIdentifiers(inSection: $0) })
        let template = numbered.template()
        #expect(template.seq == 7 && template.insertedIds == ["b0"] && template.sections == next.sectionInfos)
    }

    @Test func countsThatDisagreeAreRefusedAsAnInvalidBatch() {
        let before = model()
        var next = before
        next.snapshot.deleteSections(["b"])
        // A reload of an item the batch deletes: UIKit refuses it, and so does this.
        #expect {
            _ = try NumberedBatch(from: before, to: &next, reloading: ["b1"], seq: 1, by: "v1", sections: next.sectionInfos)
        } throws: { ($0 as? ProtocolError)?.code == .invalidBatch }
    }
}

/// What numbers a collection's changes, alone: a change numbered, what a store keeps of
/// it, and what recording it changes (the number, the ops, the sections, the serials).
struct CollectionLedgerTests {
    private func edit(_ model: CollectionModel) -> CollectionModel {
        var next = model
        next.snapshot.deleteSections(["b"])
        next.itemContent["b1"] = nil
        next.snapshot.insertItems(["a0"], beforeItem: "a1")
        next.itemContent["a0"] = ["title": "a0"]
        return next
    }

    @Test func aChangeIsNumberedNextAndRecordingItMovesTheNumberSectionsAndOp() throws {
        let model = twoSections()
        var ledger = CollectionLedger(model: model, epoch: "e1", limits: HubLimits(), seed: 1)
        #expect(ledger.nextSerial == 5 && ledger.history.sequence == 0)
        let message = ClientMessage.edit(EditRequest(op: "op1", action: .delete(items: ["b1"])))
        #expect(try ledger.handling(message, op: "op1") == nil)
        var next = edit(model)
        let entry = try ledger.number(&next, from: model, reloading: [], reconfiguring: [], by: "v1", committed: nil, changed: nil)
        #expect(entry.numbered.logged.seq == 1 && entry.numbered.update.deletedSections == [1])
        // Numbering changes nothing: a refused store leaves the ledger as it was.
        #expect(ledger.history.sequence == 0 && ledger.sections.infos(of: model) == model.sectionInfos)
        let staged = ledger.staged(entry, from: model, to: next, collection: "c", op: "op1", changedContent: ["a0"])
        #expect(staged.seq == 1 && staged.op == "op1" && staged.by == "v1" && staged.nextSerial == 5)
        #expect(staged.fingerprint == CollectionLedger.stableFingerprint(of: message))
        #expect(staged.delta.applied(to: model) == next)
        ledger.record(entry, op: "op1", committed: nil)
        #expect(ledger.history.sequence == 1)
        #expect(ledger.sections.infos(of: next) == next.sectionInfos)
        // A retry of the edit gets its number; another edit under its op is refused.
        #expect(try ledger.handling(message, op: "op1") == 1)
        #expect(throws: ProtocolError.self) { try ledger.handling(.edit(EditRequest(op: "op1", action: .delete(items: ["a1"]))), op: "op1") }
    }

    @Test func anEditAcceptedUnchangedIsAnsweredAgainAtItsNumber() throws {
        var ledger = CollectionLedger(model: twoSections(), epoch: "e1", limits: HubLimits(), seed: 1)
        let message = ClientMessage.moveEnd(op: "m1")
        #expect(try ledger.handling(message, op: "m1") == nil)
        ledger.acceptedUnchanged("m1")
        #expect(ledger.history.sequence == 0)
        #expect(try ledger.handling(message, op: "m1") == 0)
        #expect(throws: ProtocolError.self) { try ledger.handling(.edit(EditRequest(op: "m1", action: .delete(items: ["a1"]))), op: "m1") }
    }

    @Test func anotherServersBatchKeepsItsNumberFingerprintAndSerials() throws {
        let model = twoSections()
        var ledger = CollectionLedger(model: model, epoch: "e1", limits: HubLimits(), seed: 1)
        var next = edit(model)
        let entry0 = try ledger.number(&next, from: model, reloading: [], reconfiguring: [], by: "n2-v1", committed: nil, changed: nil)
        let theirs = CommittedBatch(collection: "c", seq: 4, op: "op9", fingerprint: 99, by: "n2-v1",
                                    delta: ModelDelta(from: model, to: next, batch: entry0.numbered.update, changedContent: nil),
                                    replay: entry0.numbered.logged, nextSerial: 40)
        var again = edit(model)
        let entry = try ledger.number(&again, from: model, reloading: [], reconfiguring: [], by: "n2-v1", committed: theirs, changed: nil)
        #expect(entry.numbered.logged.seq == 4)
        ledger.record(entry, op: "op9", committed: theirs)
        #expect(ledger.history.sequence == 4 && ledger.nextSerial == 40)
        #expect(ledger.takeSerial() == 40 && ledger.nextSerial == 41)
        // Its op is remembered with its fingerprint, not this server's.
        #expect(throws: ProtocolError.self) { try ledger.handling(.edit(EditRequest(op: "op9", action: .delete(items: ["a1"]))), op: "op9") }
    }

    @Test func aRestoreTakesTheStoresNumberSerialsAndSections() {
        var ledger = CollectionLedger(model: twoSections(), epoch: "e1", limits: HubLimits(), seed: 1)
        let stored = edit(twoSections())
        ledger.restore(StoredCollection(name: "c", epoch: "e7", seq: 12, model: stored, nextSerial: 3), limits: HubLimits())
        #expect(ledger.history.epoch == "e7" && ledger.history.sequence == 12)
        // A serial never goes back: 3 is below the 5 this ledger would hand out.
        #expect(ledger.nextSerial == 5)
        #expect(ledger.sections.infos(of: stored) == stored.sectionInfos)
    }
}

/// A message's cost on the server's clock, alone: the app's and the store's time is not the viewer's.
struct ServerTimeMeterTests {
    /// A clock the test moves by hand.
    final class HandClock: @unchecked Sendable {
        var now = 100.0
    }

    @Test func theAppsAndTheStoresTimeIsNotChargedAndSpansInsideSpansCountOnce() {
        let time = HandClock()
        let meter = ServerTimeMeter(clock: { time.now })
        let start = meter.start()
        time.now += 1                                 // the hub's own work
        meter.uncharged { time.now += 5 }             // a wait on the store
        meter.uncharged {                             // an app's callback whose change waits on the store
            time.now += 2
            meter.uncharged { time.now += 3 }
        }
        time.now += 0.5                               // encoding
        let (seconds, at) = meter.charge(since: start)
        #expect(seconds == 1.5 && at == 111.5)
        #expect(meter.unchargedSeconds == 10)
        // The next message is charged from its own start.
        let next = meter.start()
        time.now += 2
        #expect(meter.charge(since: next).seconds == 2)
    }

    @Test func aSpanThatThrowsIsStillNotCharged() {
        let time = HandClock()
        let meter = ServerTimeMeter(clock: { time.now })
        let start = meter.start()
        #expect(throws: ProtocolError.self) {
            try meter.uncharged { () throws(ProtocolError) in
                time.now += 4
                throw ProtocolError(.storageUnavailable, "down")
            }
        }
        time.now += 1
        #expect(meter.charge(since: start).seconds == 1)
    }
}

/// Sections a (a1, a2, a3) and b (b1), each item titled with its id.
func twoSections() -> CollectionModel {
    var model = CollectionModel()
    model.snapshot.appendSections(["a", "b"])
    model.snapshot.appendItems(["a1", "a2", "a3"], toSection: "a")
    model.snapshot.appendItems(["b1"], toSection: "b")
    for id in ["a1", "a2", "a3", "b1"] { model.itemContent[id] = ["title": id] }
    return model
}
