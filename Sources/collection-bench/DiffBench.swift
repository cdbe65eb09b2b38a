import CollectionCore
import Foundation

/// Diff benchmarks: our snapshot diff against the standard library's
/// `difference(from:).inferringMoves()`, and against a floor (building a Set).
enum DiffBench {
    struct Case {
        let name: String
        let old: [Int]
        let new: [Int]
    }

    static func cases(n: Int) -> [Case] {
        var rng = SplitMix64(seed: UInt64(n))
        let old = Array(0..<n)
        var new = old
        // 10% deletes, 10% moves, 10% inserts.
        let tenth = n / 10
        for _ in 0..<tenth { new.remove(at: Int.random(in: 0..<new.count, using: &rng)) }
        for _ in 0..<tenth {
            let item = new.remove(at: Int.random(in: 0..<new.count, using: &rng))
            new.insert(item, at: Int.random(in: 0...new.count, using: &rng))
        }
        for k in 0..<tenth { new.insert(n + k, at: Int.random(in: 0...new.count, using: &rng)) }
        return [
            Case(name: "\(n / 1000)k mixed", old: old, new: new),
            Case(name: "\(n / 1000)k no change", old: old, new: old),
            Case(name: "\(n / 1000)k shuffle", old: old, new: old.shuffled(using: &rng)),
            // One item moved (the commonest edit): the middle turned by one place.
            Case(name: "\(n / 1000)k one move", old: old, new: { var a = old; a.insert(a.remove(at: n / 4), at: n * 3 / 4); return a }()),
        ]
    }

    static func snapshot(_ ids: [Int]) -> Snapshot<Int, Int> {
        var s = Snapshot<Int, Int>()
        s.appendSections([0])
        s.appendItems(ids, toSection: 0)
        return s
    }

    /// The fewest moves: kept items minus a longest increasing run of their old positions.
    static func minimumMoves(_ old: [Int], _ new: [Int]) -> Int {
        var oldIndex: [Int: Int] = [:]
        for (i, id) in old.enumerated() { oldIndex[id] = i }
        let kept = new.compactMap { oldIndex[$0] }
        var tails: [Int] = []
        for v in kept {
            var low = 0, high = tails.count
            while low < high { let mid = (low + high) / 2; if tails[mid] < v { low = mid + 1 } else { high = mid } }
            if low == tails.count { tails.append(v) } else { tails[low] = v }
        }
        return kept.count - tails.count
    }

    static func run() -> String {
        var lines = [
            "### Diff (one section, Int identifiers, median of runs)",
            "",
            row(["case", "ours", "stdlib inferringMoves", "speed-up", "floor (Set)", "× floor", "moves", "minimum"]),
            row(["---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"]),
        ]
        var stdlib10k: [String: Double] = [:]
        for n in [10_000, 100_000] {
            for c in cases(n: n) {
                let a = snapshot(c.old), b = snapshot(c.new)
                var batch = BatchUpdate()
                let ours = median(runs: n == 10_000 ? 21 : 9) { batch = BatchUpdate(from: a, to: b) }
                let floor = median(runs: 9) { blackHole(Set(c.new)) }
                let kind = String(c.name.split(separator: " ", maxSplits: 1)[1])
                var stdlib: Double?
                var stdlibText: String
                // Myers' diff is O(N·D): estimate 100k from 10k and skip what would pass a minute.
                let estimate = stdlib10k[kind].map { kind == "no change" ? $0 * 10 : $0 * 100 }
                if let estimate, estimate > 60 {
                    stdlibText = "skipped (≈ \(formatTime(estimate)))"
                } else {
                    let t = median(runs: n == 10_000 && kind != "shuffle" ? 5 : 1) { blackHole(c.new.difference(from: c.old).inferringMoves()) }
                    stdlib = t
                    stdlibText = formatTime(t)
                    if n == 10_000 { stdlib10k[kind] = t }
                }
                let speedUp = stdlib.map { String(format: "%.0f×", $0 / ours) } ?? estimate.map { String(format: "≈ %.0f×", $0 / ours) } ?? "–"
                lines.append(row([c.name, formatTime(ours), stdlibText, speedUp, formatTime(floor),
                                  String(format: "%.1f", ours / floor), "\(batch.movedItems.count)", "\(minimumMoves(c.old, c.new))"]))
            }
        }
        return lines.joined(separator: "\n")
    }
}
