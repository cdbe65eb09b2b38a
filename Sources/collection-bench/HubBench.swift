import CollectionCore
import CollectionProtocol
import CollectionSync
import CollectionTesting
import Foundation

/// The hub alone, no sockets: what one edit costs per viewer it reaches, split
/// into applying it (every viewer's collection view and window) and encoding.
enum HubBench {
    static func makeHub(sections: Int, perSection: Int) -> CollectionHub {
        var model = CollectionModel()
        model.cellReuseIdentifier = "photo"
        model.headerReuseIdentifier = "album-header"
        for s in 0..<sections {
            let id = "s\(s)"
            model.snapshot.appendSections([id])
            model.sectionTitles[id] = "Album \(s)"
            let ids = (0..<perSection).map { "\(id)-\($0)" }
            model.snapshot.appendItems(ids, toSection: id)
            for item in ids { model.itemContent[item] = ["title": "IMG_\(item)", "color": "hsl(200 50% 50%)"] }
        }
        var limits = HubLimits()
        limits.messagesPerSecond = 1e9
        limits.messageBurst = 1e9
        return CollectionHub(model: model, factory: SerialItemFactory(),
                             policy: FixedLayoutPolicy(itemSize: CGSize(width: 96, height: 96), headerHeight: 40), limits: limits, seed: 1)
    }

    static func run() -> String {
        var lines = ["### Hub (in process, no sockets): cost per delivery", "",
                     row(["edit", "viewers", "view states", "apply per delivery", "encode per delivery", "total per delivery", "deliveries per core-second"]),
                     row(["---", "---:", "---:", "---:", "---:", "---:", "---:"])]
        let cases: [(name: String, scattered: Bool, shares: Bool)] = [
            ("shuffle a 12-item section, same viewport", false, true),
            ("shuffle a 12-item section, sharing off", false, false),
            ("move one item (2,000 items), same viewport", false, true),
            ("move one item, viewers at 40 offsets", true, true),
            ("move one item, sharing off", false, false),
        ]
        let viewers = 200
        for (name, scattered, shares) in cases where ProcessInfo.processInfo.environment["HUB_CASE"].map({ name.hasPrefix($0) }) ?? true {
            let small = name.hasPrefix("shuffle")
            let hub = makeHub(sections: small ? 3 : 4, perSection: small ? 12 : 500)
            hub.sharesViewStates = shares
            for key in 0...UInt64(viewers) {
                hub.connect(key)
                let y = scattered ? Double(key % 40) * 200 : 0
                _ = hub.receive(Array(#"{"type":"hello","viewport":{"width":320,"height":200},"offset":{"x":0,"y":\#(y)}}"#.utf8), from: key)
            }
            let edits = small ? 1_000 : 2_000
            var rng = SplitMix64(seed: 3)
            let messages: [[UInt8]] = (0..<edits).map { _ in
                if small { return Array(#"{"type":"shuffle","section":"s0"}"#.utf8) }
                let s = Int.random(in: 0..<4, using: &rng)
                return Array(#"{"type":"move","item":"s\#(s)-\#(Int.random(in: 0..<500, using: &rng))","section":"s\#(s)"}"#.utf8)
            }
            let clock = ContinuousClock()
            var deliveries = 0
            var encodeTime = Duration.zero
            var applyTime = Duration.zero
            var bytes = 0
            for m in messages {
                let start = clock.now
                let out = hub.receive(m, from: 0)
                let mid = clock.now
                for o in out { bytes &+= o.bytes.count }
                encodeTime += clock.now - mid
                applyTime += mid - start
                deliveries += out.count
            }
            blackHole(bytes)
            let apply = NetworkBench.seconds(applyTime) / Double(deliveries)
            let encode = NetworkBench.seconds(encodeTime) / Double(deliveries)
            lines.append(row([name, "\(viewers)", "\(hub.viewStateCount)", formatTime(apply), formatTime(encode), formatTime(apply + encode), String(format: "%.0f", 1 / (apply + encode))]))
        }
        return lines.joined(separator: "\n")
    }
}
