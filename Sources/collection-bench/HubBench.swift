import CollectionCore
import CollectionProtocol
import CollectionSync
import ProjectTestSupport
import Foundation
import PhotoLibraryExample

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
        return CollectionHub(model: model, factory: SerialItemFactory(),
                             policy: FixedLayoutPolicy(itemSize: CGSize(width: 96, height: 96), headerHeight: 40), limits: unlimited, seed: 1)
    }

    /// The photos demo itself, `--demo small` (3 albums of 12, its grid of squares
    /// about 150 points wide, so fractional at most widths, and its photos' fields).
    static func makePhotosHub() -> CollectionHub {
        // HUB_DEMO=photos: the photos demo's 640-item section (batches of 12 KB, mostly
        // the moves every viewer shares) instead of its 12-photo album.
        CollectionHub(model: PhotoLibraryExample.model(ProcessInfo.processInfo.environment["HUB_DEMO"] ?? "small"), factory: PhotoLibraryExample.design, policy: PhotoLibraryExample.design,
                      limits: unlimited, seed: 1)
    }

    /// Limits no bench run reaches (the server-time share would cut a run short).
    static var unlimited: HubLimits {
        var limits = HubLimits()
        limits.messagesPerSecond = 1e9
        limits.messageBurst = 1e9
        limits.outputBytesPerSecond = 1e15
        limits.outputBurst = 1e15
        limits.serverTimeShare = 1e9
        limits.serverTimeBurst = 1e9
        return limits
    }

    static func run() -> String {
        var lines = ["### Hub (in process, no sockets): cost per delivery (applying and encoding: the hub encodes to count each message's cost)", "",
                     row(["edit", "viewers", "view states", "per delivery", "deliveries per core-second"]),
                     row(["---", "---:", "---:", "---:", "---:"])]
        let cases: [(name: String, scattered: Bool, shares: Bool)] = [
            ("shuffle a 12-item section, same viewport", false, true),
            ("shuffle a 12-item section, sharing off", false, false),
            ("shuffle a 12-item section, 200 widths", false, false),
            ("shuffle a 12-item section, the photos demo at 200 widths", false, false),
            ("move one item (2,000 items), same viewport", false, true),
            ("move one item, viewers at 40 offsets", true, true),
            ("move one item, sharing off", false, false),
            ("move one item, 200 widths", false, false),
        ]
        let viewers = 200
        for (name, scattered, shares) in cases where ProcessInfo.processInfo.environment["HUB_CASE"].map({ name.hasPrefix($0) }) ?? true {
            let small = name.hasPrefix("shuffle")
            let photos = name.contains("photos demo")
            // HUB_PER_SECTION: the moves' sections that many items long (default 500).
            let perSection = small ? 12 : ProcessInfo.processInfo.environment["HUB_PER_SECTION"].flatMap(Int.init) ?? 500
            let hub = photos ? makePhotosHub() : makeHub(sections: small ? 3 : 4, perSection: perSection)
            hub.sharesViewStates = shares
            for key in 0...UInt64(viewers) {
                hub.connect(key)
                let y = scattered ? Double(key % 40) * 200 : 0
                let width = name.hasSuffix("200 widths") ? 300 + Int(key) : 320
                _ = hub.receive(Array(#"{"type":"hello","viewport":{"width":\#(width),"height":200},"offset":{"x":0,"y":\#(y)}}"#.utf8), from: key)
            }
            let edits = ProcessInfo.processInfo.environment["HUB_EDITS"].flatMap(Int.init) ?? (small ? 1_000 : 2_000)
            var rng = SplitMix64(seed: 3)
            let messages: [[UInt8]] = (0..<edits).map { _ in
                if small { return Array(#"{"type":"shuffle","section":"\#(photos ? "summer" : "s0")"}"#.utf8) }
                let s = Int.random(in: 0..<4, using: &rng)
                return Array(#"{"type":"move","item":"s\#(s)-\#(Int.random(in: 0..<perSection, using: &rng))","section":"s\#(s)"}"#.utf8)
            }
            let clock = ContinuousClock()
            var deliveries = 0
            var bytes = 0
            let start = clock.now
            // HUB_PACE_MS: an idle gap before each edit (what a paced run meets); the
            // time per delivery is then the thread's CPU time, gaps left out.
            // HUB_THRASH_MB: writes over that many megabytes before each edit (the
            // caches then hold none of the hub's data, as after a long idle gap).
            let thrash = ProcessInfo.processInfo.environment["HUB_THRASH_MB"].flatMap(Int.init) ?? 0
            let pace = ProcessInfo.processInfo.environment["HUB_PACE_MS"].flatMap(Double.init) ?? (thrash > 0 ? 0 : nil)
            // HUB_SPIN=1: the gap spent spinning instead of sleeping (the core stays
            // busy: what an idle core's coming back costs, apart from the caches).
            let spin = ProcessInfo.processInfo.environment["HUB_SPIN"] == "1"
            var cpu = 0.0
            var thrashBuffer = [UInt64](repeating: 0, count: thrash * 131072)
            for m in messages {
                if let pace {
                    if spin {
                        let until = clock.now + .microseconds(Int64(pace * 1000))
                        while clock.now < until {}
                    } else {
                        usleep(UInt32(pace * 1000))
                    }
                }
                if thrash > 0 { thrashBuffer.withUnsafeMutableBufferPointer { b in var i = 0; while i < b.count { b[i] &+= 1; i += 8 } } }
                let before = pace == nil ? 0 : threadCPU()
                let out = hub.receive(m, from: 0)
                if pace != nil { cpu += threadCPU() - before }
                for o in out { bytes &+= o.byteCount }
                deliveries += out.count
            }
            let each = (pace == nil ? NetworkBench.seconds(clock.now - start) : cpu) / Double(deliveries)
            blackHole(bytes)
            if ProcessInfo.processInfo.environment["HUB_DEBUG"] != nil { print(name, deliveries, bytes, NetworkBench.seconds(clock.now - start)) }
            lines.append(row([name, "\(viewers)", "\(hub.inspect.viewStateCount)", formatTime(each), String(format: "%.0f", 1 / each)]))
        }
        if ProcessInfo.processInfo.environment["HUB_CASE"] == nil { lines += ["", presenceTraffic()] }
        return lines.joined(separator: "\n")
    }

    /// Presence bytes sent while viewers join one after another (each join its own
    /// turn of the server's loop), and while they all leave.
    static func presenceTraffic() -> String {
        var lines = [row(["viewers joining one by one, then leaving", "presence bytes in all", "per presence message"]), row(["---", "---:", "---:"])]
        for viewers in [100, 300, 1_000] {
            let hub = makeHub(sections: 1, perSection: 12)
            var bytes = 0
            for key in 0..<UInt64(viewers) {
                hub.connect(key)
                _ = hub.receive(Array(#"{"type":"hello","viewport":{"width":320,"height":200}}"#.utf8), from: key)
                bytes += hub.endTurn().reduce(0) { $0 + $1.byteCount }
            }
            for key in 0..<UInt64(viewers) {
                _ = hub.disconnect(key)
                bytes += hub.endTurn().reduce(0) { $0 + $1.byteCount }
            }
            let perJoin = Double(bytes) / Double(viewers * viewers)
            lines.append(row(["\(viewers)", String(format: "%.1f MB", Double(bytes) / 1e6), String(format: "%.0f bytes", perJoin)]))
        }
        return lines.joined(separator: "\n")
    }
}

/// The calling thread's CPU time, in seconds.
func threadCPU() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}
