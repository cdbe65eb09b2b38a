import CollectionCore
import CollectionProtocol
import Foundation

extension ViewerConnection {
    /// `measure`: with a self-sizing layout (a flow layout's `estimatedItemSize`, a
    /// compositional layout's estimated dimensions), the sizes the
    /// client measured for its configured cells. The collection view lays
    /// out again (`setMeasuredSize`); the item at the top of the viewport keeps its
    /// place on screen (the window says where to scroll), and a size already known
    /// changes nothing, so measuring again cannot loop.
    func measure(_ sizes: [ClientMessage.MeasuredSize]) throws(ProtocolError) -> [Outgoing] {
        let cv = collectionView
        guard cv.collectionViewLayout.selfSizingCells else {
            throw ProtocolError(.badMessage, "the '\(layoutName)' layout does not size cells by their content; send 'measure' only for self-sizing layouts")
        }
        var measured: [(IndexPath, CGSize)] = []
        for m in sizes {
            guard let indexPath = model.snapshot.indexPath(for: m.item) else {
                throw ProtocolError(.unknownItem, "no item with id '\(m.item.prefix(80))'; no size was used")
            }
            measured.append((indexPath, CGSize(width: m.size.width, height: m.size.height)))
        }
        let anchor = Self.topVisibleItem(of: cv)
        for (indexPath, size) in measured { cv.mirror.setMeasuredSize(size, forItemAt: indexPath) }
        cv.layoutIfNeeded()
        var offset: Point?
        if let anchor, let frame = cv.layoutAttributesForItem(at: anchor.indexPath)?.frame {
            let top = cv.contentOffset.y
            let highest = max(0, cv.contentSize.height - cv.bounds.height)
            let wanted = min(max(0, frame.minY - anchor.distance), highest)
            if wanted != top {
                cv.contentOffset = CGPoint(x: cv.contentOffset.x, y: wanted)
                offset = Point(x: Double(cv.contentOffset.x), y: Double(wanted))
            }
        }
        let change = refreshWindow()
        guard !change.changed.isEmpty || !change.removed.isEmpty || offset != nil else { return [] }
        return [Outgoing(viewer: key, message: window(change, offset: offset))]
    }

    /// The first item reaching into the viewport, and how far below its top edge the item starts.
    private static func topVisibleItem(of cv: CollectionView) -> (indexPath: IndexPath, distance: CGFloat)? {
        let top = cv.contentOffset.y
        var best: (IndexPath, CGRect)?
        for (key, view) in cv.mirror.displayedElements {
            guard key.category == .cell, let frame = view.layoutAttributes?.frame, frame.maxY > top else { continue }
            if best == nil || (frame.minY, frame.minX) < (best!.1.minY, best!.1.minX) { best = (key.indexPath, frame) }
        }
        return best.map { ($0.0, $0.1.minY - top) }
    }
}
