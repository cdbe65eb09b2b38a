import Testing
import WebSocketTransport

/// Connection slots and send-queue caps, as pure state machines.
@Suite struct ConnectionBudgetTests {
    func id(_ n: UInt64) -> ConnectionID { ConnectionID(rawValue: n) }

    func slots(connections: Int = 10, perAddress: Int = 8, pending: Int = 4, pendingPerAddress: Int = 2) -> ConnectionSlots {
        var limits = ConnectionSlots.Limits()
        limits.maxConnections = connections
        limits.maxPerAddress = perAddress
        limits.maxPending = pending
        limits.maxPendingPerAddress = pendingPerAddress
        limits.pendingTimeout = 10
        limits.pendingTimeoutUnderPressure = 2
        return ConnectionSlots(limits: limits)
    }

    @Test func anAddressHasAPendingBudgetOfItsOwn() {
        var s = slots()
        #expect(s.admit(id(1), from: "a", at: 0) == .accept(evicting: []))
        #expect(s.admit(id(2), from: "a", at: 0) == .accept(evicting: []))
        guard case .refuse(let why) = s.admit(id(3), from: "a", at: 0) else { Issue.record("a third pending from one address was taken"); return }
        #expect(why.contains("not said hello"))
        // Once one says hello, the address may open another.
        s.confirm(id(1))
        #expect(s.admit(id(3), from: "a", at: 0) == .accept(evicting: []))
        #expect(s.pendingCount == 2 && s.count == 3)
    }

    @Test func thePendingBudgetMakesRoomByClosingTheOldestPending() {
        var s = slots()
        for (n, address) in [(1, "a"), (2, "b"), (3, "c"), (4, "d")] { _ = s.admit(id(UInt64(n)), from: address, at: Double(n)) }
        s.confirm(id(2))
        _ = s.admit(id(5), from: "e", at: 5)
        // Budget of 4 pending (1, 3, 4, 5): the next makes the oldest pending (1) go; 2 said hello and stays.
        #expect(s.admit(id(6), from: "f", at: 6) == .accept(evicting: [id(1)]))
        #expect(!s.isPending(id(1)) && !s.isPending(id(2)) && s.isPending(id(6)))
        #expect(s.count == 5 && s.pendingCount == 4)
    }

    @Test func confirmedConnectionsAreNeverRefusedBecauseOfPendingOnes() {
        var s = slots(connections: 6, perAddress: 100, pending: 4, pendingPerAddress: 4)
        // Three viewers said hello; attackers hold the rest of the slots without a word.
        for n in 1...3 {
            _ = s.admit(id(UInt64(n)), from: "real\(n)", at: 0)
            s.confirm(id(UInt64(n)))
        }
        for n in 4...6 { _ = s.admit(id(UInt64(n)), from: "attacker", at: Double(n)) }
        #expect(s.count == 6)
        // Every slot is taken: a newcomer still gets in, in the place of the oldest silent one.
        #expect(s.admit(id(7), from: "real4", at: 7) == .accept(evicting: [id(4)]))
        s.confirm(id(7))
        #expect(s.admit(id(8), from: "real5", at: 8) == .accept(evicting: [id(5)]))
        s.confirm(id(8))
        #expect(s.admit(id(9), from: "real6", at: 9) == .accept(evicting: [id(6)]))
        s.confirm(id(9))
        // Only confirmed ones left: now the limit refuses.
        guard case .refuse(let why) = s.admit(id(10), from: "real7", at: 10) else { Issue.record("over the limit"); return }
        #expect(why == "too many connections")
        #expect([1, 2, 3, 7, 8, 9].allSatisfy { !s.isPending(id(UInt64($0))) } && s.count == 6)
    }

    @Test func pendingConnectionsTimeOutSoonerUnderPressure() {
        var s = slots(connections: 100, perAddress: 100, pending: 8, pendingPerAddress: 8)
        _ = s.admit(id(1), from: "a", at: 0)
        _ = s.admit(id(2), from: "a", at: 5)
        #expect(s.currentTimeout == 10)
        #expect(s.expired(at: 9.9).isEmpty)
        #expect(s.expired(at: 10) == [id(1)])
        // Four pending of eight: two seconds each, while it lasts.
        for n in 3...5 { _ = s.admit(id(UInt64(n)), from: "a", at: 6) }
        #expect(s.pendingCount == 4 && s.currentTimeout == 2)
        #expect(s.expired(at: 7.5) == [id(2)])
        #expect(s.pendingCount == 3 && s.currentTimeout == 10)
        #expect(s.expired(at: 15.9).isEmpty)
        #expect(s.expired(at: 16) == [id(3), id(4), id(5)])
        #expect(s.pendingCount == 0 && s.count == 0)
        // A confirmed connection never times out.
        _ = s.admit(id(6), from: "a", at: 20)
        s.confirm(id(6))
        #expect(s.expired(at: 1_000).isEmpty && s.count == 1)
        // Closing frees the slot and the address's counts.
        s.remove(id(6))
        #expect(s.count == 0)
    }

    @Test func thePendingQueueStaysSmallBehindAConnectionThatWaitsForever() {
        var limits = ConnectionSlots.Limits()
        limits.pendingTimeout = 0
        var s = ConnectionSlots(limits: limits)
        _ = s.admit(id(1), from: "a", at: 0)
        for n in 2...10_000 {
            _ = s.admit(id(UInt64(n)), from: "b", at: 0)
            s.confirm(id(UInt64(n)))
            s.remove(id(UInt64(n)))
        }
        #expect(s.count == 1 && s.isPending(id(1)))
        #expect(s.expired(at: 1e9).isEmpty)
    }

    @Test func theLargestBacklogsAreCutFirstUnderTheTotalCap() {
        var ledger = BacklogLedger(maxTotal: 100, maxPerAddress: 1_000)
        #expect(ledger.add(40, to: id(1), from: "a").isEmpty)
        #expect(ledger.add(30, to: id(2), from: "b").isEmpty)
        #expect(ledger.add(20, to: id(3), from: "c").isEmpty)
        // 90 waiting; 20 more for 3 passes the cap: the largest (1) goes.
        #expect(ledger.add(20, to: id(3), from: "c") == [id(1)])
        #expect(ledger.total == 70 && ledger.backlog(of: id(3)) == 40 && ledger.backlog(of: id(1)) == 0)
        // Bytes written leave the ledger.
        ledger.sent(25, by: id(3))
        #expect(ledger.total == 45 && ledger.backlog(of: id(3)) == 15)
        // A connection that would itself be the largest is the one cut; nothing of it is counted.
        #expect(ledger.add(90, to: id(4), from: "d") == [id(4)])
        #expect(ledger.total == 45 && ledger.backlog(of: id(4)) == 0)
    }

    @Test func oneAddressCannotTakeMoreThanItsShare() {
        var ledger = BacklogLedger(maxTotal: 1_000, maxPerAddress: 50)
        #expect(ledger.add(30, to: id(1), from: "herd").isEmpty)
        #expect(ledger.add(15, to: id(2), from: "herd").isEmpty)
        #expect(ledger.add(40, to: id(3), from: "real").isEmpty)
        // The herd's address is over its share: its own largest goes, not the real viewer.
        #expect(ledger.add(10, to: id(2), from: "herd") == [id(1)])
        #expect(ledger.backlog(ofAddress: "herd") == 25 && ledger.backlog(of: id(3)) == 40)
        ledger.remove(id(2))
        #expect(ledger.total == 40 && ledger.backlog(ofAddress: "herd") == 0)
    }
}
