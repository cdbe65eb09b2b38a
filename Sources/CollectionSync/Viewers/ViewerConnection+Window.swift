import CollectionCore
import CollectionProtocol
import Foundation

/// What a viewer asks of its own view (its window, scrolling to an item, edit
/// mode): answered to that viewer alone, from its collection view, with nothing
/// of the collection changed.
extension ViewerConnection {
    /// The collection as this viewer's data source holds it.
    var model: CollectionModel { state.dataSource.store.model }

    /// A `window` message for what changed in this viewer's window: the elements
    /// new to it or changed (`changed`) and those that left (`removed`).
    func window(_ change: (changed: [Element], removed: [String]), animated: Bool = false, offset: Point? = nil) -> ServerMessage {
        .window(.init(contentSize: contentSize, bands: bands, add: change.changed, remove: change.removed, animated: animated, offset: offset))
    }

    /// The window after a step of this viewer's own (a scroll, a movement, a
    /// transition), refreshed and addressed to it.
    func windowChange(animated: Bool = false) -> Outgoing {
        Outgoing(viewer: key, message: window(refreshWindow(), animated: animated))
    }

    /// The index path of `item`, or the refusal a message naming an unknown item gets.
    func indexPath(of item: String) throws(ProtocolError) -> IndexPath {
        guard let indexPath = model.snapshot.indexPath(for: item) else { throw ProtocolError(.unknownItem, "no item with id '\(item.prefix(80))'") }
        return indexPath
    }

    /// `scroll`: the viewport and offsets (of the page and of sections that scroll
    /// on their own) the client scrolled to; answered with the window there.
    func scroll(to offset: Point, viewport: Size?, sectionOffsets: [String: Double], policy: LayoutPolicy) throws(ProtocolError) -> [Outgoing] {
        try state.scrollSections(sectionOffsets)
        show(viewport: viewport, offset: offset, policy: policy)
        return [windowChange()]
    }

    /// `scrollToItem`: the collection view scrolls the item to `position`
    /// (`scrollToItem(at:at:animated:)`); the viewer gets its new window and the
    /// offset to scroll to.
    func scroll(toItem item: String, at position: ClientMessage.ScrollTarget) throws(ProtocolError) -> [Outgoing] {
        let indexPath = try indexPath(of: item)
        let cv = collectionView
        cv.layoutIfNeeded()
        let place: ScrollPosition
        switch position {
        case .top: place = .top
        case .center: place = .centeredVertically
        case .bottom: place = .bottom
        case .nearest:
            // Only as far as needed: nothing if the item is in view already.
            guard let frame = cv.layoutAttributesForItem(at: indexPath)?.frame else { return [] }
            let top = cv.contentOffset.y, bottom = top + cv.bounds.height
            place = frame.minY < top ? .top : frame.maxY > bottom ? .bottom : .none
        }
        cv.scrollToItem(at: indexPath, at: place, animated: true)
        let change = refreshWindow()
        let offset = Point(x: Double(cv.contentOffset.x), y: Double(cv.contentOffset.y))
        return [Outgoing(viewer: key, message: window(change, offset: offset))]
    }

    /// `editing`: the collection view enters or leaves editing mode (`isEditing`).
    /// Hub view states allow multiple selection in both modes, so the selection
    /// stays as it is. Only this viewer hears the change.
    func setEditing(_ on: Bool) -> [Outgoing] {
        collectionView.isEditing = on
        return [Outgoing(viewer: key, message: .editing(on: on))]
    }
}
