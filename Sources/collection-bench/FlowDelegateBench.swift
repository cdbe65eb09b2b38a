import CollectionCore
import Foundation

/// A flow layout sized by its delegate, as a UIKit app writes it: 1,000,000 items in
/// 10 sections, a collection view asking `sizeForItemAt` of a delegate that reads
/// its own array of sizes. The first figure asks about every item (UIKit's
/// `invalidateLayout()`); the second keeps the delegate's sizes (an invalidation
/// context with `invalidateFlowLayoutDelegateMetrics` false, one item asked again);
/// the third asks for every size a section at a time (`sizesForItemsInSection`,
/// beyond UIKit). The last row is the floor of the first: what Foundation's
/// `IndexPath` alone costs per item (set the item, read the section and the item).
enum FlowDelegateBench {
    final class Source: CollectionViewDataSource {
        let counts: [Int]
        init(counts: [Int]) { self.counts = counts }
        func numberOfSections(in collectionView: CollectionView) -> Int { counts.count }
        func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { counts[section] }
        func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            collectionView.dequeueReusableCell(withReuseIdentifier: "c", for: indexPath)
        }
    }

    /// The app's sizes, one flat array (a nested array costs a retain and a release per read).
    final class Sizes: CollectionViewDelegateFlowLayout {
        let sizes: [CGSize]
        let starts: [Int]
        init(sizes: [[CGSize]]) {
            self.sizes = sizes.flatMap { $0 }
            starts = sizes.reduce(into: [0]) { $0.append($0.last! + $1.count) }
        }
        func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, sizeForItemAt indexPath: IndexPath) -> CGSize {
            sizes[starts[indexPath.section] + indexPath.item]
        }
    }

    /// The same sizes, given a section at a time.
    final class SectionSizes: CollectionViewDelegateFlowLayout {
        let sizes: [[CGSize]]
        init(sizes: [[CGSize]]) { self.sizes = sizes }
        func collectionView(_ collectionView: CollectionView, layout collectionViewLayout: CollectionViewLayout, sizesForItemsInSection section: Int) -> [CGSize]? {
            sizes[section]
        }
    }

    /// Seconds per item for what the first row's delegate does with its index path.
    static func indexPathFloor(items: Int) -> Double {
        var path = IndexPath(item: 0, section: 3)
        var sum = 0
        let t = median(runs: 7) {
            for item in 0..<items {
                path[1] = item
                sum &+= readIndexPath(path)
            }
        }
        blackHole(sum)
        return t / Double(items)
    }
    @inline(never) static func readIndexPath(_ p: IndexPath) -> Int { p.section &+ p.item }

    /// Table rows: the two ways of preparing, ns per item.
    static func rows(sizes: [[CGSize]], bounds: CGSize) -> [String] {
        let counts = sizes.map(\.count)
        let total = counts.reduce(0, +)
        let layout = CollectionViewFlowLayout()
        layout.headerReferenceSize = CGSize(width: 0, height: 40)
        layout.sectionInset = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
        let cv = CollectionView(frame: CGRect(origin: .zero, size: bounds), collectionViewLayout: layout)
        let source = Source(counts: counts)
        let delegate = Sizes(sizes: sizes)
        cv.dataSource = source
        cv.delegate = delegate
        let all = median(runs: 7) {
            layout.invalidateLayout()
            layout.prepareIfNeeded()
        }
        let kept = median(runs: 15) {
            let context = CollectionViewFlowLayoutInvalidationContext()
            context.invalidateItems(at: [IndexPath(item: 7, section: 3)])
            layout.invalidateLayout(with: context)
            layout.prepareIfNeeded()
        }
        let bySection = SectionSizes(sizes: sizes)
        cv.delegate = bySection
        let sections = median(runs: 7) {
            layout.invalidateLayout()
            layout.prepareIfNeeded()
        }
        withExtendedLifetime((cv, source, delegate, bySection)) {}
        return [
            row(["per item, from the delegate: every size asked (`invalidateLayout()`)", formatTime(all), String(format: "%.2f", all / Double(total) * 1e9), "", "", ""]),
            row(["per item, from the delegate: sizes kept (`invalidateFlowLayoutDelegateMetrics` false)", formatTime(kept), String(format: "%.2f", kept / Double(total) * 1e9), "", "", ""]),
            row(["per section, from the delegate (`sizesForItemsInSection`): every size asked", formatTime(sections), String(format: "%.2f", sections / Double(total) * 1e9), "", "", ""]),
            row(["(floor of the first: Foundation's `IndexPath` set and read, no layout)", "", String(format: "%.2f", indexPathFloor(items: total) * 1e9), "", "", ""]),
        ]
    }
}
