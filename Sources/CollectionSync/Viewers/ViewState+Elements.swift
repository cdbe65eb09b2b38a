import CollectionCore
import CollectionProtocol
import Foundation

/// The elements and animation poses a viewer's client is sent, made from its
/// collection view's displayed views.
extension ViewState {
    /// The element the client draws for a displayed view (nil for kinds it does not draw).
    func element(for key: ElementKey, _ view: CollectionReusableView) -> Element? {
        if key.category == .decorationView { return decorationElement(kind: key.kind, at: key.indexPath, view) }
        guard let a = view.appliedPlacement, let id = view.elementIdentifier else { return nil }
        let (x, y, width, height) = (Double(a.frame.minX), Double(a.frame.minY), Double(a.frame.width), Double(a.frame.height))
        let (section, item) = (key.section, key.item)
        let cache = dataSource.store.encodingCache
        if key.category == .cell {
            var content = view.content
            var record: ItemRecord?
            if let style = listLayout?.listRowStyle(at: key.indexPath) {
                WireFields.addListFields(style, to: &content)
            } else if let source = view.elementSource as? ItemRecord, source.id == id {
                // The item's identity as a viewer made it before, if it still fits.
                if let identity = source.identity, identity.same(kind: "cell", reuse: view.reuseIdentifier, content: content) {
                    return Element(identity: identity, section: section, item: item, x: x, y: y, width: width, height: height,
                                   zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, transform: WireFields.wire(a.transform))
                }
                record = source
            }
            let made = Element(key: "i:" + id, kind: "cell", reuse: view.reuseIdentifier, section: section, item: item, x: x, y: y, width: width, height: height,
                               zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, transform: WireFields.wire(a.transform), content: content, cache: cache)
            // For the next viewer whose cell (or window without views) shows the item:
            // only an identity of the record's own content (a view's content may differ),
            // which the window without views relies on.
            if let record, record.content == content { record.identity = made.identity }
            return made
        }
        let kind = key.kind
        if kind == CollectionView.elementKindSectionHeader {
            // A header's count changes while its view stays displayed: always from the model.
            return Element(key: "h:" + id, kind: "header", reuse: view.reuseIdentifier, section: section, item: nil, x: x, y: y, width: width, height: height,
                           zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, transform: WireFields.wire(a.transform),
                           content: dataSource.headerContent(forSectionAt: section), cache: cache)
        }
        // A footer, a badge: keyed by kind and by the section or item it belongs to.
        let footer = kind == CollectionView.elementKindSectionFooter
        return Element(key: "s:\(kind):" + id, kind: "supplementary", reuse: view.reuseIdentifier, section: section, item: footer ? nil : item,
                       x: x, y: y, width: width, height: height, zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden,
                       transform: WireFields.wire(a.transform), content: view.content, cache: cache)
    }

    /// Moves the element `entry` holds, last sent for `view` (at content revision
    /// `sentContentRevision`), to the view's new place, in place, if the view's
    /// content has not changed since: true if that
    /// changed the element, false if it stayed; nil when it must be made afresh. A
    /// header is kept only while its section's fields (title, count) are the store's
    /// current ones; decorations are always made afresh.
    func move(_ entry: WindowEntry, to key: ElementKey, _ view: CollectionReusableView, sentContentRevision: Int) -> Bool? {
        guard sentContentRevision == view.contentRevision, let a = view.appliedPlacement else { return nil }
        let section = key.section, item: Int?
        switch key.category {
        case .cell:
            item = key.item
        case .supplementaryView where key.kind == CollectionView.elementKindSectionFooter:
            item = nil
        case .supplementaryView where key.kind == CollectionView.elementKindSectionHeader:
            // A header shows its section's title and count, as the model has them now
            // (the store's fields: while they stay, the very dictionary the element holds).
            guard let id = dataSource.sectionIdentifier(at: section),
                  entry.element.isHeader(ofSection: id, content: dataSource.headerContent(forSectionAt: section)) else { return nil }
            item = nil
        default:
            return nil
        }
        return entry.element.place(section: section, item: item, x: Double(a.frame.minX), y: Double(a.frame.minY), width: Double(a.frame.width),
                                   height: Double(a.frame.height), zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, transform: WireFields.wire(a.transform))
    }

    /// The last batch's animations as the layout gave them, for the items in the
    /// window: inserted cells' first poses and deleted cells' last ones, where they
    /// differ from the default (the cell's frame, transparent). `deletedIds` names
    /// the batch's deleted items by their index paths before it.
    func updatePoses(deletedIds: [IndexPath: String]) -> (appear: [Pose]?, disappear: [Pose]?) {
        let animations = mirror.lastUpdateAnimations
        guard !animations.isEmpty else { return (nil, nil) }
        let model = dataSource.store.model
        var appear: [Pose] = [], disappear: [Pose] = []
        for (q, a) in animations.appearing {
            guard let id = model.snapshot.itemIdentifier(at: q) else { continue }
            let shown = mirror.displayedAttributes(ofItemAt: q)
            if a.alpha == 0 && a.transform == .identity && a.frame == shown?.frame { continue }
            appear.append(WireFields.pose("i:" + id, a))
        }
        for (p, a) in animations.disappearing {
            guard let id = deletedIds[p] else { continue }
            if a.alpha == 0 && a.transform == .identity && a.frame == animations.before[p]?.frame { continue }
            disappear.append(WireFields.pose("i:" + id, a))
        }
        appear.sort { $0.key < $1.key }
        disappear.sort { $0.key < $1.key }
        return (appear.isEmpty ? nil : appear, disappear.isEmpty ? nil : disappear)
    }

    /// The compositional layout in use, when it has list sections (their rows carry their style).
    var listLayout: CollectionViewCompositionalLayout? {
        guard let layout = collectionView.collectionViewLayout as? CollectionViewCompositionalLayout, layout.hasListSections else { return nil }
        return layout
    }

    /// The element of a decoration view (a section's background): keyed by kind and
    /// section, with the section's title and count.
    func decorationElement(kind: String, at p: IndexPath, _ view: CollectionReusableView) -> Element? {
        guard let a = view.appliedPlacement else { return nil }
        guard let id = dataSource.sectionIdentifier(at: p.section) else { return nil }
        let content = dataSource.headerContent(forSectionAt: p.section)
        return Element(key: "d:\(kind):" + id, kind: "decoration", reuse: view.reuseIdentifier, section: p.section, item: nil,
                       frame: [Double(a.frame.minX), Double(a.frame.minY), Double(a.frame.width), Double(a.frame.height)],
                       zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, transform: WireFields.wire(a.transform), content: content)
    }
}
