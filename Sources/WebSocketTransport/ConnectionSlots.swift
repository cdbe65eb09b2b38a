/// Who gets a connection slot. A connection is *pending* from its upgrade until the
/// application confirms it (``WebSocketServer/confirm(_:)``: a viewer said hello)
/// or it closes. Pending connections have a budget of their own, globally and per
/// address, and a shorter time to be confirmed once that budget is half spent, so
/// that sockets that never say anything cannot keep real viewers out: a confirmed
/// connection is never refused because of pending ones (when every slot is taken,
/// the oldest pending connection makes room). Pure: the caller passes the time.
public struct ConnectionSlots: Sendable {
    /// The limits.
    public struct Limits: Sendable, Equatable {
        /// Connections in all (pending and confirmed).
        public var maxConnections = 1_024
        /// Connections from one address in all.
        public var maxPerAddress = 256
        /// Pending connections in all.
        public var maxPending = 128
        /// Pending connections from one address.
        public var maxPendingPerAddress = 16
        /// Seconds a connection may stay pending (0: no limit).
        public var pendingTimeout = 10.0
        /// Seconds it may stay pending while half of ``maxPending`` or more is taken.
        public var pendingTimeoutUnderPressure = 2.0
        /// The defaults.
        public init() {}
    }

    /// What to do with a new connection.
    public enum Decision: Equatable, Sendable {
        /// Take it; close these pending connections first to make room (1008).
        case accept(evicting: [ConnectionID])
        /// Refuse it (1008, with this reason).
        case refuse(String)
    }

    public let limits: Limits
    private struct Slot: Sendable {
        var address: String
        var openedAt: Double
        var pending: Bool
    }
    private var slots: [ConnectionID: Slot] = [:]
    private var perAddress: [String: (all: Int, pending: Int)] = [:]
    /// Pending connections in the order they opened (confirmed and closed ones are
    /// skipped when met: ``slots`` says which still are).
    private var queue: [ConnectionID] = []
    private var head = 0
    /// Pending connections now.
    public private(set) var pendingCount = 0

    /// Slots under `limits`.
    public init(limits: Limits) { self.limits = limits }

    /// Connections holding a slot.
    public var count: Int { slots.count }

    /// Whether `id` holds a slot and is still pending.
    public func isPending(_ id: ConnectionID) -> Bool { slots[id]?.pending ?? false }

    /// A new connection from `address` at `now`: taken (pending) or refused.
    public mutating func admit(_ id: ConnectionID, from address: String, at now: Double) -> Decision {
        let here = perAddress[address] ?? (0, 0)
        if here.pending >= limits.maxPendingPerAddress {
            return .refuse("too many connections from your address that have not said hello")
        }
        if here.all >= limits.maxPerAddress { return .refuse("too many connections from your address") }
        var evicting: [ConnectionID] = []
        while pendingCount >= limits.maxPending || slots.count >= limits.maxConnections {
            guard let oldest = oldestPending() else { return .refuse("too many connections") }
            evicting.append(oldest)
            remove(oldest)
        }
        slots[id] = Slot(address: address, openedAt: now, pending: true)
        perAddress[address] = (here.all + 1, here.pending + 1)
        pendingCount += 1
        queue.append(id)
        // Confirmed or closed entries behind a pending one that stays (no time
        // limit) are dropped now and then: the queue holds about the pending ones.
        if queue.count - head > 2 * pendingCount + 64 {
            queue = queue[head...].filter { slots[$0]?.pending ?? false }
            head = 0
        }
        return .accept(evicting: evicting)
    }

    /// The application vouches for `id` (it said hello): it is no longer pending.
    public mutating func confirm(_ id: ConnectionID) {
        guard let slot = slots[id], slot.pending else { return }
        slots[id]?.pending = false
        perAddress[slot.address]?.pending -= 1
        pendingCount -= 1
    }

    /// `id` closed (or was refused, evicted or timed out): its slot is free.
    public mutating func remove(_ id: ConnectionID) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        let here = perAddress[slot.address] ?? (1, slot.pending ? 1 : 0)
        let left = (here.all - 1, here.pending - (slot.pending ? 1 : 0))
        perAddress[slot.address] = left.0 > 0 ? left : nil
        if slot.pending { pendingCount -= 1 }
    }

    /// The time a connection may stay pending now (nil: no limit).
    public var currentTimeout: Double? {
        guard limits.pendingTimeout > 0 else { return nil }
        return pendingCount * 2 >= limits.maxPending ? min(limits.pendingTimeout, limits.pendingTimeoutUnderPressure) : limits.pendingTimeout
    }

    /// Pending connections past their time at `now`, oldest first; their slots are
    /// freed (close them).
    public mutating func expired(at now: Double) -> [ConnectionID] {
        var out: [ConnectionID] = []
        while let timeout = currentTimeout, let oldest = oldestPending(), let slot = slots[oldest], now - slot.openedAt >= timeout {
            out.append(oldest)
            remove(oldest)
        }
        return out
    }

    /// The oldest connection still pending (the queue's stale entries dropped).
    private mutating func oldestPending() -> ConnectionID? {
        while head < queue.count, !(slots[queue[head]]?.pending ?? false) { head += 1 }
        if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return head < queue.count ? queue[head] : nil
    }
}
