import CollectionCore
import CollectionProtocol
import CollectionSync
import Foundation

/// Decode → apply with invariant checks, for libFuzzer (FuzzTesting/) and for the
/// ordinary test run that replays the kept corpus. The input is split at newlines
/// into messages from two viewers (a line starting with `2:` is viewer 2's).
public enum FuzzHarness {
    /// A small collection: 3 sections of 6 items, one of them immovable and one a
    /// folder, with the standard drop delegate.
    ///
    /// - Returns: A hub over that collection, with no viewer yet.
    public static func makeHub() -> CollectionHub {
        var model = CollectionModel()
        for s in ["a", "b", "c"] {
            model.snapshot.appendSections([s])
            let ids = (0..<6).map { "\(s)\($0)" }
            model.snapshot.appendItems(ids, toSection: s)
            for id in ids { model.itemContent[id] = ["title": id] }
        }
        model.immovableItems = ["b2"]
        model.itemContent["c0"] = ["title": "c0", "kind": "folder", "count": "0"]
        var limits = HubLimits()
        limits.maxItems = 200
        limits.maxRangeSelection = 12
        let hub = CollectionHub(model: model, factory: SerialItemFactory(), policy: FixedLayoutPolicy(itemSize: CGSize(width: 40, height: 30), headerHeight: 10),
                             limits: limits, seed: 7, epoch: "fuzz", clock: { 0 })
        hub.dropDelegate = ModelDropDelegate()
        return hub
    }

    /// Runs one input; returns the invariants it broke (empty: none).
    ///
    /// - Parameter input: Bytes: messages from viewers and what else the harness reads from them.
    /// - Returns: The invariants broken, described.
    public static func run(_ input: [UInt8]) -> [String] {
        // Decoding alone must never crash, whatever the bytes.
        _ = try? ClientMessage.decode(input)

        let hub = makeHub()
        hub.connect(1)
        hub.connect(2)
        for key in [UInt64(1), 2] {
            _ = hub.receive(Array(#"{"type":"hello","viewport":{"width":200,"height":90}}"#.utf8), from: key)
        }
        var problems: [String] = []
        for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).prefix(64) {
            var bytes = Array(line)
            var key: UInt64 = 1
            if bytes.starts(with: Array("2:".utf8)) {
                key = 2
                bytes.removeFirst(2)
            }
            let before = (hub.model, hub.sequence)
            let out = hub.receive(bytes, from: key)
            problems += check(hub, out: out, before: before, from: key)
            // Each line is a turn of the server's loop.
            if hub.endTurn().contains(where: { if case .presenceChange = $0.message { false } else { true } }) {
                problems.append("the end of a turn sent something other than presence")
            }
            if !problems.isEmpty { break }
        }
        return problems
    }

    /// The invariants one message's handling broke: `out` is what the hub returned for
    /// a message from `key`, `before` the model and sequence before it.
    ///
    /// - Parameters:
    ///   - hub: The hub that handled the message.
    ///   - out: What it returned.
    ///   - before: Its model and sequence number before.
    ///   - key: The sender's connection.
    /// - Returns: The invariants broken, described.
    public static func check(_ hub: CollectionHub, out: [Outgoing], before: (CollectionModel, Int), from key: UInt64) -> [String] {
        var problems = hub.model.checkInvariants()
        let changed = hub.sequence != before.1
        if changed {
            if hub.sequence != before.1 + 1 { problems.append("sequence jumped from \(before.1) to \(hub.sequence)") }
            let batches = out.compactMap { o -> (UInt64, ServerMessage.Batch)? in
                if case .batch(let b) = o.message { return (o.viewer, b) } else { return nil }
            }
            if Set(batches.map(\.0)) != [1, 2] { problems.append("a batch did not reach every viewer") }
            for (_, b) in batches {
                if b.seq != hub.sequence { problems.append("batch \(b.seq) sent for sequence \(hub.sequence)") }
                let counts = hub.model.snapshot.sectionCounts
                if b.sections.map(\.count) != counts { problems.append("batch counts \(b.sections.map(\.count)) vs model \(counts)") }
                for (info, id) in zip(b.sections, hub.model.snapshot.sectionIdentifiers)
                where info.checksum != orderChecksum(hub.model.snapshot.itemIdentifiers(inSection: id)) {
                    problems.append("checksum of section \(id) does not match the model")
                }
                // Every element sent is where the model says.
                for e in b.elements where e.kind == "cell" {
                    let id = String(e.key.dropFirst(2))
                    if hub.model.snapshot.indexPath(for: id) != IndexPath(item: e.item ?? -1, section: e.section) {
                        problems.append("element \(e.key) sent at [\(e.section), \(e.item ?? -1)], the model has it elsewhere")
                    }
                }
            }
        } else {
            if hub.model != before.0 { problems.append("the model changed without a sequence number") }
            // Replayed batches (after a resume) are the only batches without a new number.
            if out.contains(where: { if case .batch(let b) = $0.message { return !b.replay } else { return false } }) {
                problems.append("a batch was sent without a new sequence number")
            }
            // Only presence (selection, focus, drag) may reach others without a batch.
            let presence: (ServerMessage) -> Bool = {
                switch $0 {
                case .selection, .selections, .focus, .drag, .presenceChange: true
                default: false
                }
            }
            if out.contains(where: { $0.viewer != key && !presence($0.message) }) {
                problems.append("a message without a batch reached another viewer")
            }
        }
        return problems
    }
}
