import CollectionCore
import Foundation

/// A flow layout sized by its delegate, as a UIKit app writes it: 1,000,000 items in
/// 10 sections, a collection view asking `sizeForItemAt` of a delegate that reads
/// its own array of sizes. The first figure asks about every item (UIKit's
/// `invalidateLayout()`); the second keeps the delegate's sizes (an invalidation
/// context with `invalidateFlowLayoutDelegateMetrics` false, one item asked again).
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
        withExtendedLifetime((cv, source, delegate)) {}
        return [
            row(["per item, from the delegate: every size asked (`invalidateLayout()`)", formatTime(all), String(format: "%.2f", all / Double(total) * 1e9), "", "", ""]),
            row(["per item, from the delegate: sizes kept (`invalidateFlowLayoutDelegateMetrics` false)", formatTime(kept), String(format: "%.2f", kept / Double(total) * 1e9), "", "", ""]),
        ]
    }
}
