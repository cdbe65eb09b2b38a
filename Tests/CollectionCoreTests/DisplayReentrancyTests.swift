import CollectionCore
import Foundation
import Testing

/// A cell that reports each attributes it is given.
private final class ProbeCell: CollectionViewCell {
    nonisolated(unsafe) static var onApply: (() -> Void)?
    override func apply(_ layoutAttributes: CollectionViewLayoutAttributes) {
        Self.onApply?()
        super.apply(layoutAttributes)
    }
}

private final class ProbeDataSource: CollectionViewDataSource {
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int { 60 }
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "probe", for: indexPath)
        cell.content["title"] = "a\(indexPath.item)"
        return cell
    }
}

private final class Weak {
    weak var object: CollectionReusableView?
    init(_ object: CollectionReusableView) { self.object = object }
}

/// A delegate that, once armed, reloads the collection view from inside
/// `willDisplay` and takes every recycled cell out of the reuse queue, dropping it:
/// the cells displayed before are then held by nothing the app or the queues keep.
private final class ReloadingDelegate: CollectionViewDelegate {
    var armed = false
    var dropped: [Weak] = []
    func collectionView(_ cv: CollectionView, willDisplay cell: CollectionViewCell, forItemAt p: IndexPath) {
        guard armed else { return }
        armed = false
        cv.reloadData()
        for _ in 0..<cv.mirror.reusableViewCount { dropped.append(Weak(cv.dequeueReusableCell(withReuseIdentifier: "probe", for: p))) }
    }
}

@Suite(.serialized) struct DisplayReentrancyTests {
    /// A display update holds the displayed views unretained; a delegate that
    /// reloads while it runs must not free a view it still reads.
    @Test func viewsTakenOutDuringADisplayUpdateStayAliveUntilItEnds() throws {
        let cv = CollectionView(frame: CGRect(x: 0, y: 0, width: 300, height: 200), collectionViewLayout: grid(CollectionViewFlowLayout()))
        cv.register(ProbeCell.self, forCellWithReuseIdentifier: "probe")
        let dataSource = ProbeDataSource(), delegate = ReloadingDelegate()
        cv.dataSource = dataSource
        cv.delegate = delegate
        #expect(cv.indexPathsForVisibleItems == (0..<12).map { ip($0) })
        let before = cv.visibleCells.map(Weak.init)
        var aliveAtEachApply: [Bool] = []
        ProbeCell.onApply = { aliveAtEachApply.append(before.allSatisfy { $0.object != nil }) }
        defer { ProbeCell.onApply = nil }
        // Half a line down: the twelve stay and the three of a fifth line enter; the
        // first that enters sets the delegate off, and the update goes on to give the
        // entering cells their attributes while it still holds the twelve.
        delegate.armed = true
        cv.contentOffset = CGPoint(x: 0, y: 25)
        _ = cv.mirror.displayedElements
        // The twelve shown before and the first that entered, recycled by the reload.
        #expect(!delegate.armed && delegate.dropped.count == 13)
        #expect(!aliveAtEachApply.isEmpty && aliveAtEachApply.allSatisfy { $0 })
        // Once it ended, nothing keeps them.
        #expect(before.allSatisfy { $0.object == nil })
        // The reload shows the items at the new offset.
        #expect(cv.indexPathsForVisibleItems == (0..<15).map { ip($0) })
    }
}
