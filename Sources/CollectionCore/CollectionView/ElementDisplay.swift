import Foundation

/// The elements a collection view displays and their views (UIKit keeps these in
/// the collection view's private tables). It brings them in line with what the
/// layout gives for the display rect, asking the data source for the views of new
/// elements and telling the delegate what shows and what left; it keeps the reuse
/// queues and the items prefetched ahead of the display rect; without views
/// (``CollectionViewMirror/keepsNoViews``), the layout's attributes instead. Its collection
/// view owns it and hands itself to each call that asks or tells its data source or
/// delegate: it keeps no reference to it.
package final class ElementDisplay {
    // The state marked `@exclusivity(unchecked)` is touched for every displayed view
    // of every viewer on every batch, and never through an access held across a call
    // out (a delegate, a data source, an observer; the parts below call nothing out).
    // The run-time exclusivity check on each access cost about 8% of a batch
    // (callgrind); the compile-time one stays.
    /// The registered view classes and the views waiting to be reused.
    @exclusivity(unchecked) var reuse = ReusePool()
    /// The displayed views by element.
    @exclusivity(unchecked) var views = DisplayedViews()
    /// Whether it keeps no views (``CollectionViewMirror/keepsNoViews``).
    @exclusivity(unchecked) var viewless = false
    /// Without views: the attributes the layout gave for the display rect, as it last asked.
    @exclusivity(unchecked) var shown = ShownAttributes()
    /// Items prefetched and not displayed yet.
    @exclusivity(unchecked) var prefetching = PrefetchedItems()
    /// The cell being configured again by `reconfigureItems`: dequeuing hands it back.
    @exclusivity(unchecked) var reconfiguring: CollectionViewCell?
    /// How far past the bounds elements count as displayed (``CollectionViewMirror/displayMargin``).
    @exclusivity(unchecked) var margin: CGFloat = 0

    /// The displayed views by element.
    var table: [ElementKey: CollectionReusableView] { views.table }

    /// Where `view` is displayed, as an element of `category` (nil: it is not).
    func indexPath(of view: CollectionReusableView, as category: ElementCategory) -> IndexPath? {
        views.table.first { $0.value === view && $0.key.category == category }?.key.indexPath
    }

    // MARK: Views of the data source

    /// A cell for `identifier`: the one being configured again, a reused one, or a new
    /// one of the registered class (nil: none is registered).
    func dequeueCell(_ identifier: String) -> CollectionViewCell? {
        if let cell = reconfiguring, cell.reuseIdentifier == identifier {
            cell.beginConfiguring()
            return cell
        }
        guard let (type, queue) = reuse.cell(identifier) else { return nil }
        if let reused = queue.views.popLast() as? CollectionViewCell {
            reused.prepareForReuse()
            reused.beginConfiguring()
            return reused
        }
        let cell = type.init(reuseIdentifier: identifier)
        cell.beginConfiguring()
        return cell
    }

    /// A supplementary view of `kind` for `identifier`: a reused one or a new one of the
    /// registered class (nil: none is registered).
    func dequeueSupplementary(_ kind: String, _ identifier: String) -> CollectionReusableView? {
        let key = ReusePool.supplementaryKey(kind, identifier)
        guard let type = reuse.supplementaryClasses[key] else { return nil }
        if let reused = reuse.take(key) {
            reused.prepareForReuse()
            return reused
        }
        return type.init(reuseIdentifier: identifier)
    }

    // MARK: The display pass

    /// Brings the displayed set of `cv` in line with its layout: new elements get views
    /// from the data source (willDisplay), gone ones are recycled (didEndDisplaying).
    func update(_ cv: CollectionView) {
        cv.needsDisplayUpdate = false
        views.beginUpdate()
        defer { views.endUpdate() }
        let rect = cv.mirror.displayRect
        let layout = cv.collectionViewLayout
        // Attributes and views in two arrays (a tuple of both copied through generic
        // code at every step was a good part of a batch's cost for each viewer).
        var attributesWanted = layout.layoutAttributesForElements(in: rect) ?? []
        // Fresh buffers, not ones kept here: a kept buffer is this viewer's own, cold
        // after 20 ms of idle, where the allocator hands back what the viewer before
        // freed, still in the cache (docs/BENCHMARKS.md, "Fan-out cost"). One buffer:
        // the views (each key is made again from its attributes where needed, cheaper
        // than a buffer of keys made, filled and freed). The views unretained: the
        // table keeps each (a view made below is put in the table before its
        // reference is noted here; one that leaves the table while this runs, should
        // a delegate or data source reload, is kept by `DisplayedViews.keepForUpdate()`),
        // and retaining each in the array and releasing it with the array were two
        // atomic operations per displayed view of every viewer on every batch.
        var made: [Unmanaged<CollectionReusableView>?] = []
        if let movement = cv.movement {
            for i in attributesWanted.indices where attributesWanted[i].representedElementCategory == .cell && attributesWanted[i].elementKey == .cell(movement.current) {
                attributesWanted[i] = layout.layoutAttributesForInteractivelyMovingItem(at: movement.current, withTargetPosition: movement.position)
            }
        }
        // Keep the views of elements still wanted; recycle what left before making
        // views for new elements, so that those reuse the recycled views. Looked up in
        // a local copy of the table, gone before the table changes: each lookup in the
        // stored property itself retained and released its storage.
        made.reserveCapacity(attributesWanted.count)
        do {
            let shown = views.table
            for i in attributesWanted.indices { made.append(shown[attributesWanted[i].elementKey].map(Unmanaged.passUnretained)) }
        }
        var changed = false
        // Mark the views still wanted: any other displayed view left.
        let found = views.mark(made)
        if found != views.table.count {
            // The set changed (most batches and scrolls keep it): what left goes, in place.
            let departed = views.removeUnmarked(found: found)
            let delegate = cv.delegate
            for d in departed { endDisplaying(d.view, d.key, delegate: delegate, in: cv) }
            changed = !departed.isEmpty
        }
        if found != made.count, let dataSource = cv.dataSource {
            let delegate = cv.delegate
            for i in made.indices where made[i] == nil {
                let key = attributesWanted[i].elementKey
                guard let view = makeView(for: key, from: dataSource, in: cv) else { continue }
                views.table[key] = view
                made[i] = Unmanaged.passUnretained(view)
                willDisplay(view, key, delegate: delegate, in: cv)
                changed = true
            }
        }
        let selfSizing = layout.selfSizingCells
        var resized = false
        for i in made.indices {
            guard let unretained = made[i] else { continue }
            if !unretained._withUnsafeGuaranteedRef({ $0.hasLayoutAttributes(equalTo: attributesWanted[i]) }) {
                changed = true
                unretained._withUnsafeGuaranteedRef { $0.apply(attributesWanted[i]) }
            }
            guard selfSizing, attributesWanted[i].representedElementCategory == .cell else { continue }
            let attributes = attributesWanted[i]
            let preferred = unretained.takeUnretainedValue().preferredLayoutAttributesFitting(attributes).size
            if preferred != attributes.size && cv.selfSizedItems?[attributes.indexPath] != preferred {
                cv.selfSizedItems = cv.selfSizedItems ?? [:]
                cv.selfSizedItems![attributes.indexPath] = preferred
                resized = true
            }
        }
        if changed { cv.displayGeneration += 1 }
        updatePrefetching(around: rect, in: cv)
        // Sizes changed: lay out once more. Each cell reports a size once per
        // change, so this settles (no invalidation loop).
        if resized {
            layout.invalidateLayout()
            layout.prepareIfNeeded()
            update(cv)
        }
    }

    /// Without views: asks the layout of `cv` what the display rect shows, unless the
    /// layout tells that its answers are the last ones (a batch of moves in a grid of
    /// one item size: the same frames at the same index paths).
    func updateShown(_ cv: CollectionView) {
        cv.needsDisplayUpdate = false
        shown.update(from: cv.collectionViewLayout, in: cv.mirror.displayRect)
        cv.displayGeneration += 1
    }

    private func makeView(for key: ElementKey, from dataSource: CollectionViewDataSource, in cv: CollectionView) -> CollectionReusableView? {
        let p = key.indexPath
        switch key.category {
        case .cell:
            let cell = dataSource.collectionView(cv, cellForItemAt: cv.movement?.dataIndexPath(forPresented: p) ?? p)
            cell.isSelected = !cv.selection.selected.isEmpty && cv.selection.selected.contains(p)
            cell.isHighlighted = cv.selection.highlighted != nil && cv.selection.highlighted == p
            cell.editingState = cv.isEditing
            cell.finishConfiguring()
            return cell
        case .supplementaryView:
            return dataSource.collectionView(cv, viewForSupplementaryElementOfKind: key.kind, at: p)
        case .decorationView:
            let kind = key.kind
            // Made from the class the layout registered for the kind; drawn by the template named after the kind.
            if let view = reuse.take(ReusePool.decorationKey(kind)) {
                view.prepareForReuse()
                return view
            }
            return (cv.collectionViewLayout.decorationViewClasses[kind] ?? CollectionReusableView.self).init(reuseIdentifier: kind)
        }
    }

    /// Tells `delegate` (that of `cv`, read once by the caller) that `view` shows `key`.
    private func willDisplay(_ view: CollectionReusableView, _ key: ElementKey, delegate: CollectionViewDelegate?, in cv: CollectionView) {
        switch key.category {
        case .cell:
            let p = key.indexPath
            prefetching.displayed(p)
            if let delegate, let cell = view as? CollectionViewCell { delegate.collectionView(cv, willDisplay: cell, forItemAt: p) }
        case .supplementaryView:
            delegate?.collectionView(cv, willDisplaySupplementaryView: view, forElementKind: key.kind, at: key.indexPath)
        case .decorationView:
            break
        }
    }

    /// Tells `delegate` (that of `cv`, read once by the caller) that `view` no longer
    /// shows `key`, and recycles the view.
    private func endDisplaying(_ view: CollectionReusableView, _ key: ElementKey, delegate: CollectionViewDelegate?, in cv: CollectionView) {
        switch key.category {
        case .cell:
            if let delegate, let cell = view as? CollectionViewCell { delegate.collectionView(cv, didEndDisplaying: cell, forItemAt: key.indexPath) }
        case .supplementaryView:
            delegate?.collectionView(cv, didEndDisplayingSupplementaryView: view, forElementOfKind: key.kind, at: key.indexPath)
        case .decorationView:
            break
        }
        reuse.recycle(view, shown: key)
    }

    /// Items within one more screen of the displayed rect are prefetched; those that
    /// drift out of that band before being displayed are cancelled.
    private func updatePrefetching(around rect: CGRect, in cv: CollectionView) {
        guard cv.isPrefetchingEnabled, let prefetchDataSource = cv.prefetchDataSource else {
            prefetching.removeAll()
            return
        }
        let band = cv.mirror.scrollsHorizontally ? rect.insetBy(dx: -cv.bounds.width, dy: 0) : rect.insetBy(dx: 0, dy: -cv.bounds.height)
        var inBand: Set<IndexPath> = []
        for a in cv.collectionViewLayout.layoutAttributesForElements(in: band) ?? [] where a.representedElementCategory == .cell {
            if views.table[.cell(a.indexPath)] == nil { inBand.insert(a.indexPath) }
        }
        let (start, cancel) = prefetching.update(inBand: inBand) { views.table[.cell($0)] != nil }
        if !cancel.isEmpty { prefetchDataSource.collectionView(cv, cancelPrefetchingForItemsAt: cancel) }
        if !start.isEmpty { prefetchDataSource.collectionView(cv, prefetchItemsAt: start) }
    }

    // MARK: Batches and reloads

    /// Moves what is displayed to its places after a batch of `cv` (`mapper`'s), ending
    /// the display of what the batch took away. Returns the displayed attributes of the
    /// items gone (their animations end there) and the cells to configure again.
    func remap(_ batch: BatchUpdate, by mapper: IndexPathMapper, in cv: CollectionView)
        -> (vanished: [IndexPath: CollectionViewLayoutAttributes], reconfigure: [IndexPath: CollectionViewCell]) {
        var vanished = viewless ? ShownAttributes.vanished(from: shown.attributes, batch, mapper) : [:]
        if !prefetching.items.isEmpty { prefetching.remap(by: mapper) }
        // Without views (a server's viewers, mostly) the table is empty: nothing to move.
        guard !views.table.isEmpty else { return (vanished, [:]) }
        let remapped = views.remap(by: mapper, reconfigured: Set(batch.reconfiguredItems), vanished: &vanished)
        if !remapped.departed.isEmpty {
            let delegate = cv.delegate
            for d in remapped.departed { endDisplaying(d.view, d.key, delegate: delegate, in: cv) }
        }
        return (vanished, remapped.reconfigure)
    }

    /// Has the data source of `cv` configure `cells` again (each dequeuing hands back
    /// the cell itself).
    func reconfigure(_ cells: [IndexPath: CollectionViewCell], in cv: CollectionView) {
        guard let dataSource = cv.dataSource else { return }
        for (p, cell) in cells {
            reconfiguring = cell
            let result = dataSource.collectionView(cv, cellForItemAt: cv.movement?.dataIndexPath(forPresented: p) ?? p)
            reconfiguring = nil
            result.finishConfiguring()
            if result !== cell { cell.content = result.content }
        }
    }

    /// Ends the display of every view (a reload of `cv`) and forgets what was prefetched.
    func removeAll(in cv: CollectionView) {
        views.keepForUpdate()
        let departed = views.table
        views.table = [:]
        let delegate = cv.delegate
        for (key, view) in departed { endDisplaying(view, key, delegate: delegate, in: cv) }
        prefetching.removeAll()
    }

    /// Keeps no views (true: lets go of the displayed views without ending them) or
    /// keeps them again (false: they are made at the next pass).
    func keepNoViews(_ on: Bool) {
        viewless = on
        if on { views.removeAll() } else { shown.reset() }
    }

    // MARK: Reading

    /// How many elements are displayed (views, or attributes without them).
    var count: Int { viewless ? shown.attributes.count : views.table.count }

    /// The attributes the displayed cell of the item at `indexPath` was given (nil: not displayed).
    func attributes(ofItemAt indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        viewless ? ShownAttributes.item(at: indexPath, in: shown.attributes) : views.table[.cell(indexPath)]?.layoutAttributes
    }

    /// Whether a cell of the item at `indexPath` is displayed.
    func displaysItem(at indexPath: IndexPath) -> Bool {
        viewless ? ShownAttributes.item(at: indexPath, in: shown.attributes) != nil : views.table[.cell(indexPath)] != nil
    }

    /// Bytes of this object read by a batch: all of it, as the allocator may hand it out
    /// (its size class, or the next one up when a free block is not split).
    package static let prefetchBytes = 216

    /// Notes what a batch reads here: this object, the table of displayed views and
    /// the attributes shown.
    func gatherPrefetch(into list: inout PrefetchList) {
        list.add(self, bytes: Self.prefetchBytes)
        views.gatherPrefetch(into: &list)
        shown.gatherPrefetch(into: &list)
    }
}
