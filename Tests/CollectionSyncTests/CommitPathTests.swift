import CollectionProtocol
import CollectionCore
import CollectionSync
import Testing

/// The commit path as a value, with no store and no threads: what it asks for, in
/// what order, and which messages wait for which batches.
struct CommitPathTests {
    func batch(_ seq: Int, _ collection: String = "c") -> CommittedBatch {
        CommittedBatch(collection: collection, seq: seq, op: "op\(seq)", fingerprint: 0, by: "v1", delta: ModelDelta(),
                       replay: LoggedBatch(seq: seq, by: "v1", deletes: [], deletedIds: [], inserts: [], insertedIds: [], moves: [], reloads: [], sections: []),
                       nextSerial: 0)
    }

    func message(_ n: Int, to viewer: UInt64 = 1) -> Outgoing {
        Outgoing(viewer: viewer, message: .ack(op: "m\(n)", seq: n))
    }

    let full = StoreError(.full, "no room")

    @Test func withNothingToKeepMessagesGoOutAtOnce() {
        var path = CommitPath()
        #expect(path.send([message(1), message(2)]) == [message(1), message(2)])
        #expect(path.endTurn() == .deliver([], lost: nil))
        #expect(path.state == .idle)
    }

    @Test func theTurnsFirstBatchStartsAtOnceAndTheRestAreAppendedTogetherAtItsEnd() {
        var path = CommitPath()
        #expect(path.send([message(0)]) == [message(0)], "nothing unkept is ahead of it")
        #expect(path.stage(batch(1)) == [batch(1)])
        #expect(path.send([message(1)]).isEmpty)
        #expect(path.stage(batch(2)) == nil)
        #expect(path.stage(batch(3)) == nil)
        #expect(path.send([message(2), message(3)]).isEmpty)
        #expect(path.held == [message(1), message(2), message(3)])
        #expect(path.endTurn() == .waitForAppend)
        #expect(path.appendEnded(nil) == .append([batch(2), batch(3)]))
        #expect(path.appendEnded(nil) == .deliver([message(1), message(2), message(3)], lost: nil))
        #expect(path.state == .idle && path.held.isEmpty)
        // The next turn starts again.
        #expect(path.send([message(4)]) == [message(4)])
        #expect(path.stage(batch(4)) == [batch(4)])
    }

    @Test func aTurnOfOneBatchWaitsForItsAppendOnly() {
        var path = CommitPath()
        _ = path.stage(batch(1))
        _ = path.send([message(1)])
        #expect(path.endTurn() == .waitForAppend)
        #expect(path.appendEnded(nil) == .deliver([message(1)], lost: nil))
    }

    @Test func whenTheFirstAppendFailsNothingOfTheTurnIsKeptOrAppended() {
        var path = CommitPath()
        _ = path.stage(batch(1))
        _ = path.stage(batch(2))
        _ = path.send([message(1), message(2)])
        #expect(path.endTurn() == .waitForAppend)
        let step = path.appendEnded(full)
        #expect(step == .deliver([message(1), message(2)], lost: .init(error: full, batches: [batch(1), batch(2)])))
        if case let .deliver(_, lost) = step { #expect(lost?.collections == ["c"]) }
        #expect(path.state == .idle)
    }

    @Test func whenTheStagedAppendFailsOnlyItsBatchesAreLost() {
        var path = CommitPath()
        _ = path.stage(batch(1, "a"))
        _ = path.stage(batch(2, "b"))
        _ = path.send([message(1)])
        _ = path.endTurn()
        #expect(path.appendEnded(nil) == .append([batch(2, "b")]))
        #expect(path.appendEnded(full) == .deliver([message(1)], lost: .init(error: full, batches: [batch(2, "b")])))
    }

    @Test func aSharedEditOfOneCollectionCommitsAsItsBatchJoins() {
        var path = CommitPath()
        path.editOpened(on: ["c"])
        #expect(path.openEdit == ["c"])
        #expect(path.send([message(0)]) == [message(0)], "no batch has joined yet")
        #expect(path.joined(batch(1)) == true)
        #expect(path.state == .idle && path.openEdit == nil)
        #expect(path.send([message(1)]) == [message(1)], "its batch is kept before it is applied")
    }

    @Test func aSharedEditOfSeveralCollectionsCommitsWhenTheTurnEnds() {
        var path = CommitPath()
        path.editOpened(on: ["a", "b"])
        #expect(path.joined(batch(1, "a")) == false)
        #expect(path.joined(batch(1, "b")) == false)
        #expect(path.send([message(1)]).isEmpty)
        #expect(path.endTurn() == .commitEdit)
        #expect(path.editEnded(nil) == .deliver([message(1)], lost: nil))
        path.editOpened(on: ["a", "b"])
        _ = path.joined(batch(2, "a"))
        _ = path.send([message(2)])
        _ = path.endTurn()
        #expect(path.editEnded(full) == .deliver([message(2)], lost: .init(error: full, batches: [batch(2, "a")])))
    }

    @Test func anEditThatAppendedNothingIsCancelled() {
        var path = CommitPath()
        path.editOpened(on: ["c"])
        #expect(path.endTurn() == .cancelEdit)
        #expect(path.editEnded(nil) == .deliver([], lost: nil))
        #expect(path.state == .idle)
    }

    /// Random turns against a store that fails at random: every message comes out
    /// once, in the order it was sent, and never while a batch staged before it is
    /// unkept; a lost batch is reported with the turn that lost it.
    @Test func randomTurnsKeepOrderAndNeverSendAheadOfAnUnkeptBatch() {
        var rng = SplitMix64(seed: 47)
        var path = CommitPath()
        var sent = 0, seq = 0
        var delivered: [Int] = []
        var unkept: Set<Int> = [] // batches staged and not yet reported
        var stagedBefore: [Int: Int] = [:] // message → the last batch staged before it
        for _ in 0..<2_000 {
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                if Bool.random(using: &rng) {
                    seq += 1
                    _ = path.stage(batch(seq))
                    unkept.insert(seq)
                } else {
                    sent += 1
                    stagedBefore[sent] = seq
                    for out in path.send([message(sent)]) {
                        let n = Int(out.message.ackSeq)
                        #expect(unkept.allSatisfy { $0 > stagedBefore[n]! }, "message \(n) went out ahead of a batch before it")
                        delivered.append(n)
                    }
                }
            }
            var step = path.endTurn()
            turn: while true {
                switch step {
                case .waitForAppend, .append:
                    step = path.appendEnded(Int.random(in: 0..<10, using: &rng) == 0 ? full : nil)
                case .commitEdit, .cancelEdit:
                    Issue.record("no shared edit was opened")
                    break turn
                case let .deliver(out, lost):
                    for b in lost?.batches ?? [] { #expect(unkept.contains(b.seq)) }
                    unkept = []
                    delivered += out.map { Int($0.message.ackSeq) }
                    break turn
                }
            }
            #expect(path.state == .idle && path.held.isEmpty)
        }
        #expect(delivered == Array(1...sent))
    }
}

private extension ServerMessage {
    var ackSeq: Int {
        if case let .ack(_, seq) = self { return seq }
        return -1
    }
}
