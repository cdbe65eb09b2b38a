import CollectionCore
import Foundation
import Testing

/// The drag delegate (UIKit's `UICollectionViewDragDelegate`): what a drag carries,
/// what is added to it, and the session's beginning and end.
@Suite struct DragDelegateTests {
    final class Recorder: CollectionViewDragDelegate {
        var log: [String] = []
        var refused: Set<Int> = []
        var allowsMove = true
        func collectionView(_ collectionView: CollectionView, itemsForBeginning session: DragSession, at indexPath: IndexPath) -> [DragItem] {
            log.append("begin \(indexPath.item)")
            return refused.contains(indexPath.item) ? [] : [DragItem(local: "a\(indexPath.item)", from: "c", content: [:])]
        }
        func collectionView(_ collectionView: CollectionView, itemsForAddingTo session: DragSession, at indexPath: IndexPath, point: CGPoint) -> [DragItem] {
            log.append("add \(indexPath.item) to \(session.items.count) at \(Int(point.x))")
            return refused.contains(indexPath.item) ? [] : [DragItem(local: "a\(indexPath.item)", from: "c", content: [:])]
        }
        func collectionView(_ collectionView: CollectionView, dragSessionWillBegin session: DragSession) { log.append("will begin \(session.items.count)") }
        func collectionView(_ collectionView: CollectionView, dragSessionDidEnd session: DragSession) {
            log.append("did end " + session.items.compactMap(\.localObject).joined(separator: ","))
        }
        func collectionView(_ collectionView: CollectionView, dragSessionAllowsMoveOperation session: DragSession) -> Bool { allowsMove }
    }

    func view(_ delegate: Recorder?) -> (CollectionView, ArrayDataSource) {
        let (cv, dataSource) = makeCollectionView([items("a", 6)])
        cv.dragDelegate = delegate
        cv.dragInteractionEnabled = true
        return (cv, dataSource)
    }

    @Test func theDelegateSaysWhatADragCarriesAndHearsItEnd() throws {
        let delegate = Recorder()
        let (cv, dataSource) = view(delegate)
        defer { withExtendedLifetime(dataSource) {} }
        let session = try #require(cv.interactions.beginDragSession(at: ip(1), location: CGPoint(x: 150, y: 20)))
        #expect(session.items.map(\.localObject) == ["a1"] && session.allowsMoveOperation)
        #expect(cv.hasActiveDrag && cv.mirror.holdsUserState)
        #expect(cv.interactions.addToDragSession(at: ip(3), location: CGPoint(x: 40, y: 70)).map(\.localObject) == ["a3"])
        #expect(cv.activeDragSession?.items.compactMap(\.localObject) == ["a1", "a3"])
        cv.interactions.endDragSession()
        #expect(!cv.hasActiveDrag && cv.activeDragSession == nil)
        #expect(delegate.log == ["begin 1", "will begin 1", "add 3 to 1 at 40", "did end a1,a3"])
        cv.interactions.endDragSession()   // nothing under way: nothing told
        #expect(delegate.log.count == 4)
    }

    @Test func noItemsNoDrag() {
        let delegate = Recorder()
        delegate.refused = [2]
        delegate.allowsMove = false
        let (cv, dataSource) = view(delegate)
        defer { withExtendedLifetime(dataSource) {} }
        #expect(cv.interactions.beginDragSession(at: ip(2), location: .zero) == nil)
        #expect(!cv.hasActiveDrag && delegate.log == ["begin 2"])
        // A copy-only drag; adding an item the delegate refuses adds nothing.
        #expect(cv.interactions.beginDragSession(at: ip(0), location: .zero)?.allowsMoveOperation == false)
        #expect(cv.interactions.addToDragSession(at: ip(2), location: .zero).isEmpty)
        #expect(cv.activeDragSession?.items.count == 1)
        // A new drag ends the one under way.
        _ = cv.interactions.beginDragSession(at: ip(4), location: .zero)
        #expect(delegate.log.contains("did end a0"))
        // Without a delegate, or with dragging off, nothing is dragged.
        let (other, otherSource) = view(nil)
        defer { withExtendedLifetime(otherSource) {} }
        #expect(other.interactions.beginDragSession(at: ip(0), location: .zero) == nil)
        cv.dragInteractionEnabled = false
        #expect(cv.interactions.beginDragSession(at: ip(0), location: .zero) == nil)
    }
}
