import CollectionProtocol

/// What one viewer knows, built only from what the server sent it: the elements
/// of its window, section counts and checksums, the sequence number and, when the
/// viewer asked for it (`wantOrder`), every section's identifier order.
public struct Mirror: Sendable, Equatable {
    /// Elements in the window, by key.
    public private(set) var elements: [String: Element] = [:]
    /// Sections as last announced.
    public private(set) var sections: [SectionInfo] = []
    /// The last sequence number applied.
    public private(set) var seq = 0
    /// The server's history.
    public private(set) var epoch: String?
    /// This viewer.
    public private(set) var viewer: ViewerInfo?
    /// Item identifiers per section, kept up to date from batches (nil without `wantOrder`).
    public private(set) var order: [[String]]?
    /// False between a welcome whose order follows and the order's last part.
    public private(set) var orderComplete = true
    /// Content size in this viewer's layout.
    public private(set) var contentSize = Size(width: 0, height: 0)

    /// An empty mirror.
    public init() {}

    /// Why a message could not be applied.
    public struct Divergence: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Applies a server message. Throws when it does not follow: a sequence gap,
    /// or an order that no longer matches the server's checksum.
    ///
    /// - Parameter message: A message from the server, in the order it came.
    /// - Throws: ``Divergence`` when it does not follow what the mirror holds.
    public mutating func apply(_ message: ServerMessage) throws(Divergence) {
        switch message {
        case .welcome(let w):
            elements = Dictionary(uniqueKeysWithValues: w.elements.map { ($0.key, $0) })
            sections = w.sections
            seq = w.seq
            epoch = w.epoch
            viewer = w.viewer
            order = w.order ?? (w.orderFollows == true ? w.sections.map { _ in [] } : nil)
            orderComplete = w.orderFollows != true
            contentSize = w.contentSize
            if orderComplete { try checkOrder() }
        case .order(let part):
            guard var o = order, o.indices.contains(part.section), !orderComplete else {
                throw Divergence(description: "an order part for section \(part.section) the mirror did not expect")
            }
            o[part.section] += part.ids
            order = o
            if part.last {
                orderComplete = true
                try checkOrder()
            }
        case .resume(let r):
            viewer = r.viewer
            guard r.fromSeq == seq else { throw Divergence(description: "resume from \(r.fromSeq), but the mirror is at \(seq)") }
        case .window(let w):
            if w.replace { elements = [:] }
            for key in w.remove { elements[key] = nil }
            for e in w.add { elements[e.key] = e }
            contentSize = w.contentSize
        case .batch(let b):
            guard b.seq == seq + 1 else { throw Divergence(description: "batch \(b.seq) after \(seq)") }
            seq = b.seq
            if var o = order { try Mirror.applyOrder(b, to: &o); order = o }
            sections = b.sections
            try checkOrder()
            if !b.replay {
                for key in b.remove { elements[key] = nil }
                for e in b.elements { elements[e.key] = e }
                contentSize = b.contentSize
            }
        default:
            break
        }
    }

    /// UIKit's batch rules on identifier lists: removals at old positions, then
    /// inserts and move targets at new positions, the others keeping their order.
    static func applyOrder(_ b: ServerMessage.Batch, to order: inout [[String]]) throws(Divergence) {
        let counts = b.sections.map(\.count)
        guard counts.count == order.count else { throw Divergence(description: "section count changed from \(order.count) to \(counts.count)") }
        var removed = Set(b.deletes.map { Pair($0) })
        var placed: [[String?]] = counts.map { [String?](repeating: nil, count: $0) }
        for m in b.moves {
            let from = Pair(m[0]), to = Pair(m[1])
            removed.insert(from)
            guard order.indices.contains(from.s), order[from.s].indices.contains(from.i), placed.indices.contains(to.s), placed[to.s].indices.contains(to.i) else {
                throw Divergence(description: "move \(m) out of range")
            }
            placed[to.s][to.i] = order[from.s][from.i]
        }
        guard b.inserts.count == b.insertedIds.count else { throw Divergence(description: "inserts without identifiers") }
        for (p, id) in zip(b.inserts, b.insertedIds) {
            let to = Pair(p)
            guard placed.indices.contains(to.s), placed[to.s].indices.contains(to.i) else { throw Divergence(description: "insert \(p) out of range") }
            placed[to.s][to.i] = id
        }
        for s in order.indices {
            var slot = 0
            for (i, id) in order[s].enumerated() where !removed.contains(Pair(s, i)) {
                while slot < placed[s].count, placed[s][slot] != nil { slot += 1 }
                guard slot < placed[s].count else { throw Divergence(description: "section \(s) overflows") }
                placed[s][slot] = id
            }
        }
        guard placed.allSatisfy({ $0.allSatisfy { $0 != nil } }) else { throw Divergence(description: "a slot was left empty") }
        order = placed.map { $0.map { $0! } }
    }

    private func checkOrder() throws(Divergence) {
        guard let order else { return }
        for (s, info) in sections.enumerated() {
            guard order.indices.contains(s), order[s].count == info.count, orderChecksum(order[s]) == info.checksum else {
                throw Divergence(description: "section \(info.id): the mirrored order does not match the server's count or checksum")
            }
        }
    }

    private struct Pair: Hashable {
        let s: Int, i: Int
        init(_ p: [Int]) { s = p.count > 0 ? p[0] : -1; i = p.count > 1 ? p[1] : -1 }
        init(_ s: Int, _ i: Int) { self.s = s; self.i = i }
    }

    /// The element of the item `id`, if it is in the window.
    ///
    /// - Parameter id: An item identifier.
    /// - Returns: Its cell's element, or nil.
    public func element(item id: String) -> Element? { elements["i:" + id] }

    /// The element at an index path, if it is in the window.
    ///
    /// - Parameters:
    ///   - section: The section's index.
    ///   - item: The item's index in it.
    /// - Returns: The cell's element, or nil.
    public func element(section: Int, item: Int) -> Element? {
        elements.values.first { $0.kind == "cell" && $0.section == section && $0.item == item }
    }
}
