/// The bytes waiting to be sent, per connection, per address and in all, under a
/// cap for each of the last two: a few clients that stop reading cannot take the
/// server's memory (each connection's own queue has its bound too). Past a cap,
/// the largest backlogs are cut first: the connection adding the bytes may itself
/// be the one cut. Pure.
public struct BacklogLedger: Sendable {
    /// Bytes that may wait in all.
    public let maxTotal: Int
    /// Bytes that may wait for the connections of one address.
    public let maxPerAddress: Int
    private var bytes: [ConnectionID: Int] = [:]
    private var addressOf: [ConnectionID: String] = [:]
    private var perAddress: [String: Int] = [:]
    /// Bytes waiting in all.
    public private(set) var total = 0

    /// A ledger with these caps.
    public init(maxTotal: Int, maxPerAddress: Int) {
        self.maxTotal = maxTotal
        self.maxPerAddress = maxPerAddress
    }

    /// Bytes waiting for `id`.
    public func backlog(of id: ConnectionID) -> Int { bytes[id] ?? 0 }

    /// Bytes waiting for the connections of `address`.
    public func backlog(ofAddress address: String) -> Int { perAddress[address] ?? 0 }

    /// `count` bytes are to wait for `id` (from `address`): the connections to cut
    /// first, largest backlog first, so that they fit under both caps. When `id` is
    /// among them, the bytes are not taken; otherwise they are counted. The caller
    /// cuts each one (and tells ``remove(_:)``).
    public mutating func add(_ count: Int, to id: ConnectionID, from address: String) -> [ConnectionID] {
        var cut: [ConnectionID] = []
        var mine = bytes[id] ?? 0
        // One address over its share: its own largest go first.
        while (perAddress[address] ?? 0) + count > maxPerAddress {
            guard let largest = largest(where: { addressOf[$0] == address }, adding: count, to: id, mine: mine) else { break }
            cut.append(largest)
            if largest == id { drop(id); return cut }
            drop(largest)
        }
        while total + count > maxTotal {
            guard let largest = largest(where: { _ in true }, adding: count, to: id, mine: mine) else { break }
            cut.append(largest)
            if largest == id { drop(id); return cut }
            drop(largest)
        }
        mine += count
        bytes[id] = mine
        addressOf[id] = address
        perAddress[address, default: 0] += count
        total += count
        return cut
    }

    /// `count` bytes of `id`'s were written (or dropped).
    public mutating func sent(_ count: Int, by id: ConnectionID) {
        guard let mine = bytes[id], count > 0 else { return }
        let left = max(0, mine - count)
        let gone = mine - left
        total -= gone
        if let address = addressOf[id] {
            let rest = (perAddress[address] ?? gone) - gone
            perAddress[address] = rest > 0 ? rest : nil
        }
        if left == 0 {
            bytes[id] = nil
            addressOf[id] = nil
        } else {
            bytes[id] = left
        }
    }

    /// `id` is gone (closed, cut): what waited for it is forgotten.
    public mutating func remove(_ id: ConnectionID) { drop(id) }

    private mutating func drop(_ id: ConnectionID) {
        sent(bytes[id] ?? 0, by: id)
    }

    /// The connection with the most bytes waiting among those `included`, counting
    /// `count` more for `id` (whose backlog is `mine`); ties go to the lowest id.
    private func largest(where included: (ConnectionID) -> Bool, adding count: Int, to id: ConnectionID, mine: Int) -> ConnectionID? {
        var best: (ConnectionID, Int)?
        var candidates = bytes.filter { included($0.key) }.map { ($0.key, $0.value) }
        if !candidates.contains(where: { $0.0 == id }) { candidates.append((id, mine)) }
        for (candidate, waiting) in candidates {
            let weight = candidate == id ? waiting + count : waiting
            if let (b, w) = best, w > weight || (w == weight && b < candidate) { continue }
            best = (candidate, weight)
        }
        return best?.0
    }
}
