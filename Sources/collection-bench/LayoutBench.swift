import CollectionCore
import Foundation

/// Flow layout of 1,000,000 items in 10 sections: preparation cost per item and
/// the median time to answer a 1000×800 visible-rect query.
enum LayoutBench {
    static func run() -> String {
        let counts = Array(repeating: 100_000, count: 10)
        let total = counts.reduce(0, +)
        var rng = SplitMix64(seed: 99)
        let sizes: [[CGSize]] = counts.map { n in
            (0..<n).map { _ in CGSize(width: CGFloat(Int.random(in: 30...120, using: &rng)), height: CGFloat(Int.random(in: 30...80, using: &rng))) }
        }
        let bounds = CGSize(width: 1000, height: 800)
        var lines = [
            "### Flow layout (1,000,000 items in 10 sections, 1000×800 bounds)",
            "",
            row(["item sizes", "prepare", "ns per item", "query: attributes (median)", "query: frames only (median)", "items per query"]),
            row(["---", "---:", "---:", "---:", "---:", "---:"]),
        ]
        let variants: [(String, LayoutContext)] = [
            ("fixed (itemSize)", LayoutContext(numberOfItems: counts, boundsSize: bounds)),
            ("variable, per item (a `sizeForItem` closure)", LayoutContext(numberOfItems: counts, boundsSize: bounds, sizeForItem: { sizes[$0.section][$0.item] })),
            ("variable, per section (sizesInSection)", LayoutContext(numberOfItems: counts, boundsSize: bounds, sizesInSection: { sizes[$0] })),
        ]
        // LAYOUT_CASE=delegate: only the rows of the flow layout sized by its delegate (for callgrind).
        let only = ProcessInfo.processInfo.environment["LAYOUT_CASE"]
        for (name, context) in variants where only == nil {
            let layout = CollectionViewFlowLayout()
            layout.itemSize = CGSize(width: 60, height: 60)
            layout.headerReferenceSize = CGSize(width: 0, height: 40)
            layout.sectionInset = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
            let prepare = median(runs: context.numberOfItems.isEmpty || name.hasPrefix("fixed") ? 51 : 7) { layout.prepare(context) }
            let height = layout.collectionViewContentSize.height
            let rects = (0..<2_000).map { _ in CGRect(x: 0, y: CGFloat.random(in: 0...(height - 800), using: &rng), width: 1000, height: 800) }
            var found = 0
            let attributes = medianPerCall(rects) { rect in
                var n = 0
                layout.forEachElement(in: rect) { _ in n += 1 }
                found += n
            }
            let frames = medianPerCall(rects) { rect in
                var n = 0
                layout.forEachItemFrame(in: rect) { _, _, _ in n += 1 }
                blackHole(n)
            }
            lines.append(row([name, formatTime(prepare), String(format: "%.2f", prepare / Double(total) * 1e9),
                              formatTime(attributes), formatTime(frames), "\(found / rects.count)"]))
        }
        lines += FlowDelegateBench.rows(sizes: sizes, bounds: bounds)
        return lines.joined(separator: "\n")
    }

    static func medianPerCall(_ rects: [CGRect], _ body: (CGRect) -> Void) -> Double {
        let clock = ContinuousClock()
        var times = rects.map { rect in
            let elapsed = clock.measure { body(rect) }
            return Double(elapsed.components.attoseconds) * 1e-18 + Double(elapsed.components.seconds)
        }
        times.sort()
        return times[times.count / 2]
    }
}
