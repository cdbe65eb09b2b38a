import CollectionCore
import CollectionProtocol
import Foundation

/// The window of a viewer with no state of its own, read from its layout: no views
/// (``CollectionView/keepsNoViews``). Its elements are the ones the views would give
/// (the same keys, fields and encodings), found by key in the same entries, so a state
/// goes from views to none and back without a message to its client.
extension ViewState {
    /// Whether this state's window can do without views: no selection, focus,
    /// movement, transition or measured sizes of its own, no list rows (their style
    /// follows their neighbours), no sections that scroll on their own, no kinds the
    /// window without views does not make, and the app did not ask for views.
    var canDoWithoutViews: Bool {
        guard !needsViews, !dataSource.store.keepsViews, !mirror.holdsUserState else { return false }
        let layout = collectionView.collectionViewLayout
        return !layout.selfSizingCells && listLayout == nil && layout.orthogonalScrollingRegions.isEmpty
    }

    /// ``refreshWindow(force:)`` without views; nil when the layout shows kinds it does
    /// not make (footers, badges, decorations): the state then keeps views.
    func refreshWithoutViews(force: Bool) -> (changed: [Element], removed: [String])? {
        collectionView.layoutIfNeeded()
        guard force || mirror.displayGeneration != windowGeneration else { return ([], []) }
        let shown = mirror.shownAttributes
        let madeHere = shown.withUnsafeBufferPointer { shown in
            shown.indices.allSatisfy { shown[$0].representedElementCategory == .cell || shown[$0].isSectionHeader }
        }
        guard madeHere else {
            needsViews = true
            mirror.keepsNoViews = false
            return nil
        }
        windowGeneration = mirror.displayGeneration
        if force { sentGeneration += 1 }
        pass &+= 1
        let pass = pass
        var marked = 0
        var changed = takeChanged(capacity: shown.count + 1)
        prefetch.removeAll()
        prefetch.add(self, bytes: Self.prefetchBytes)
        mirror.gatherPrefetch(into: &prefetch)
        // Every cell's reuse identifier, unless items have their own: read once.
        let model = dataSource.store.model
        let reuse = model.itemReuseIdentifiers.isEmpty ? model.cellReuseIdentifier : nil
        shown.withUnsafeBufferPointer { shown in
            for i in shown.indices {
                if shown[i].representedElementCategory == .cell {
                    cellWithoutView(shown[i], reuse: reuse, pass: pass, shown: &marked, changed: &changed)
                } else {
                    headerWithoutView(shown[i], pass: pass, shown: &marked, changed: &changed)
                }
            }
        }
        if let background = backgroundElement() { hold(background, pass: pass, shown: &marked, changed: &changed, encoded: false) }
        let removed = finishRefresh(pass: pass, shown: marked, changed: &changed)
        return (changed, removed)
    }

    /// A cell's element, as the view the data source configures would give it
    /// (`reuse`: every cell's reuse identifier; nil: the item's own).
    private func cellWithoutView(_ a: borrowing CollectionViewLayoutAttributes, reuse: String?, pass: Int, shown: inout Int, changed: inout [Element]) {
        let store = dataSource.store
        let (section, item) = a.sectionAndItem
        guard let record = store.record(section: section, item: item) else { return }
        let reuse = reuse ?? store.model.reuseIdentifier(forItem: record.id)
        let f = a.frame
        let (x, y, width, height) = (Double(f.minX), Double(f.minY), Double(f.width), Double(f.height))
        let transform = WireFields.wire(a.transform)
        // The record's identity was made from its content (a record's content never
        // changes), as a cell's: only the reuse identifier may have changed since.
        if let identity = record.identity, identity.reuse == reuse {
            // The element the client holds, if it holds this very one: moved in place.
            if let held = entries[identity.hashedKey], held.element.identity === identity {
                return place(held, section: section, item: item, a, transform: transform, pass: pass, shown: &shown, changed: &changed)
            }
            hold(Element(identity: identity, section: section, item: item, x: x, y: y, width: width, height: height, zIndex: a.zIndex,
                         alpha: Double(a.alpha), hidden: a.isHidden, transform: transform), pass: pass, shown: &shown, changed: &changed)
            return
        }
        let made = Element(key: "i:" + record.id, kind: "cell", reuse: reuse, section: section, item: item, x: x, y: y, width: width, height: height,
                           zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, transform: transform, content: record.content,
                           cache: store.encodingCache)
        record.identity = made.identity   // for the next viewer whose window shows the item
        hold(made, pass: pass, shown: &shown, changed: &changed)
    }

    /// A section header's element: the section's title and count, as the model has them now.
    private func headerWithoutView(_ a: borrowing CollectionViewLayoutAttributes, pass: Int, shown: inout Int, changed: inout [Element]) {
        let section = a.sectionAndItem.section
        guard let identity = dataSource.store.headerIdentity(forSectionAt: section) else { return }
        // The header the client holds for the section, while its title and count stay:
        // moved in place. Known by identity, or (one made before the header template
        // changed, or with views) by its key and fields: a header view shown keeps its
        // template.
        if let held = headerEntries[section], held.isHeld,
           held.element.identity === identity || held.element.isHeader(like: identity) {
            return place(held, section: section, item: nil, a, transform: WireFields.wire(a.transform), pass: pass, shown: &shown, changed: &changed)
        }
        let f = a.frame
        let made = Element(identity: identity, section: section, item: nil, x: Double(f.minX), y: Double(f.minY), width: Double(f.width), height: Double(f.height),
                           zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, transform: WireFields.wire(a.transform))
        headerEntries[section] = hold(made, pass: pass, shown: &shown, changed: &changed)
    }

    /// Moves the element `held` holds to `a`'s place, in place (its encoding stays),
    /// marked as shown in `pass`; added to `changed` if that changed it.
    private func place(_ held: WindowEntry, section: Int, item: Int?, _ a: borrowing CollectionViewLayoutAttributes, transform: [Double]?,
                       pass: Int, shown: inout Int, changed: inout [Element]) {
        if held.pass != pass { held.pass = pass; shown += 1 }
        prefetch.add(UnsafeRawPointer(Unmanaged.passUnretained(held).toOpaque()), bytes: WindowEntry.prefetchBytes)
        let f = a.frame
        if held.element.place(section: section, item: item, x: Double(f.minX), y: Double(f.minY), width: Double(f.width), height: Double(f.height),
                              zIndex: a.zIndex, alpha: Double(a.alpha), hidden: a.isHidden, transform: transform) {
            changed.append(held.element)
        }
    }
}

extension Element {
    /// Whether this is the header of the section whose identifier is `id`, showing
    /// `content` (its title and count as the model has them now).
    func isHeader(ofSection id: String, content: [String: String]) -> Bool {
        key.utf8.count == id.utf8.count + 2 && key.hasSuffix(id) && self.content == content
    }

    /// Whether this element has `identity`'s key and content (its reuse identifier aside).
    func isHeader(like identity: Identity) -> Bool {
        hashedKey == identity.hashedKey && content == identity.content
    }
}
