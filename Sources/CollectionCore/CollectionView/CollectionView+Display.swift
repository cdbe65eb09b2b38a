import Foundation

extension CollectionView {
    /// The bounds grown by `displayMargin` along the scrolling axis, and by a screen
    /// each way across it when sections scroll on their own (their neighbouring
    /// cells are held before they scroll into view).
    public var displayRect: CGRect {
        let across = orthogonalScrollingRegions.isEmpty ? 0 : 1.0
        return scrollsHorizontally ? bounds.insetBy(dx: -displayMargin, dy: -across * bounds.height)
                                   : bounds.insetBy(dx: -across * bounds.width, dy: -displayMargin)
    }

    /// Views waiting in the reuse queues (at most as many as were displayed at once).
    public var reusableViewCount: Int { reuse.waitingCount }

    /// Elements displayed now (inside ``displayRect``), with their views.
    public var displayedElements: [ElementKey: CollectionReusableView] {
        layoutIfNeeded()
        return display.table
    }

    /// The index path the data source knows an item by (differs from the shown one
    /// only while an item is being moved interactively).
    func dataIndexPath(forPresented p: IndexPath) -> IndexPath {
        guard let movement else { return p }
        return movement.dataIndexPath(forPresented: p)
    }

    /// Brings the displayed set in line with the layout: new elements get views from
    /// the data source (willDisplay), gone ones are recycled (didEndDisplaying).
    func updateDisplayedElements() {
        needsDisplayUpdate = false
        display.beginUpdate()
        defer { display.endUpdate() }
        let rect = displayRect
        // Attributes and views in two arrays (a tuple of both copied through generic
        // code at every step was a good part of a batch's cost for each viewer).
        var attributesWanted = collectionViewLayout.layoutAttributesForElements(in: rect) ?? []
        // Fresh buffers, not ones kept by the collection view: a kept buffer is this
        // viewer's own, cold after 20 ms of idle, where the allocator hands back what
        // the viewer before freed, still in the cache (docs/BENCHMARKS.md, "Fan-out cost").
        // One buffer: the views (each key is made again from its attributes where
        // needed, cheaper than a buffer of keys made, filled and freed).
        // The views unretained: the displayed table keeps each (a view made below is
        // put in the table before its reference is noted here; one that leaves the
        // table while this runs, should a delegate or data source reload, is kept by
        // `DisplayedViews.keepForUpdate()`), and retaining each in the array and releasing
        // it with the array were two atomic operations per displayed view of every
        // viewer on every batch.
        var views: [Unmanaged<CollectionReusableView>?] = []
        if let movement {
            for i in attributesWanted.indices where attributesWanted[i].representedElementCategory == .cell && attributesWanted[i].elementKey == .cell(movement.current) {
                attributesWanted[i] = collectionViewLayout.layoutAttributesForInteractivelyMovingItem(at: movement.current, withTargetPosition: movement.position)
            }
        }
        // Keep the views of elements still wanted; recycle what left before making
        // views for new elements, so that those reuse the recycled views.
        // Looked up in a local copy of the table, gone before the table changes: each
        // lookup in the stored property itself retained and released its storage.
        views.reserveCapacity(attributesWanted.count)
        do {
            let shown = display.table
            for i in attributesWanted.indices { views.append(shown[attributesWanted[i].elementKey].map(Unmanaged.passUnretained)) }
        }
        var changed = false
        // Mark the views still wanted: any other displayed view left.
        let found = display.mark(views)
        if found != display.table.count {
            // The set changed (most batches and scrolls keep it): what left goes, in place.
            let departed = display.removeUnmarked(found: found)
            let delegate = self.delegate
            for d in departed { endDisplaying(d.view, d.key, delegate: delegate) }
            changed = !departed.isEmpty
        }
        if found != views.count, let dataSource {
            let delegate = self.delegate
            for i in views.indices where views[i] == nil {
                let key = attributesWanted[i].elementKey
                guard let made = makeView(for: key, from: dataSource) else { continue }
                display.table[key] = made
                views[i] = Unmanaged.passUnretained(made)
                willDisplay(made, key, delegate: delegate)
                changed = true
            }
        }
        let selfSizing = collectionViewLayout.selfSizingCells
        var resized = false
        for i in views.indices {
            guard let unretained = views[i] else { continue }
            if !unretained._withUnsafeGuaranteedRef({ $0.hasLayoutAttributes(equalTo: attributesWanted[i]) }) {
                changed = true
                unretained._withUnsafeGuaranteedRef { $0.apply(attributesWanted[i]) }
            }
            guard selfSizing else { continue }
            let view = unretained.takeUnretainedValue()
            if attributesWanted[i].representedElementCategory == .cell {
                let attributes = attributesWanted[i]
                let p = attributes.indexPath
                let preferred = view.preferredLayoutAttributesFitting(attributes).size
                if preferred != attributes.size && selfSizedItems?[p] != preferred {
                    selfSizedItems = selfSizedItems ?? [:]
                    selfSizedItems![p] = preferred
                    resized = true
                }
            }
        }
        if changed { displayGeneration += 1 }
        updatePrefetching(around: rect)
        // Sizes changed: lay out once more. Each cell reports a size once per
        // change, so this settles (no invalidation loop).
        if resized {
            collectionViewLayout.invalidateLayout()
            collectionViewLayout.prepareIfNeeded()
            updateDisplayedElements()
        }
    }

    /// Records the size a cell's content needs (measured by the client) and lays
    /// out again if it changed. Only with self-sizing (`estimatedItemSize`).
    public func setMeasuredSize(_ size: CGSize, forItemAt indexPath: IndexPath) {
        guard isValid(indexPath), selfSizedItems?[indexPath] != size else { return }
        display.table[.cell(indexPath)]?.measuredSize = size
        selfSizedItems = selfSizedItems ?? [:]
        selfSizedItems![indexPath] = size
        collectionViewLayout.invalidateLayout()
        needsDisplayUpdate = true
    }

    private func makeView(for key: ElementKey, from dataSource: CollectionViewDataSource) -> CollectionReusableView? {
        let p = key.indexPath
        switch key.category {
        case .cell:
            let cell = dataSource.collectionView(self, cellForItemAt: dataIndexPath(forPresented: p))
            cell.isSelected = !selection.selected.isEmpty && selection.selected.contains(p)
            cell.isHighlighted = selection.highlighted != nil && selection.highlighted == p
            cell.editingState = isEditing
            cell.finishConfiguring()
            return cell
        case .supplementaryView:
            return dataSource.collectionView(self, viewForSupplementaryElementOfKind: key.kind, at: p)
        case .decorationView:
            let kind = key.kind
            // Made from the class the layout registered for the kind; drawn by the template named after the kind.
            if let view = reuse.take(ReusePool.decorationKey(kind)) {
                view.prepareForReuse()
                return view
            }
            return (collectionViewLayout.decorationViewClasses[kind] ?? CollectionReusableView.self).init(reuseIdentifier: kind)
        }
    }

    /// Tells `delegate` (the collection view's, read once by the caller) that `view` shows `key`.
    func willDisplay(_ view: CollectionReusableView, _ key: ElementKey, delegate: CollectionViewDelegate?) {
        switch key.category {
        case .cell:
            let p = key.indexPath
            prefetching.displayed(p)
            if let delegate, let cell = view as? CollectionViewCell { delegate.collectionView(self, willDisplay: cell, forItemAt: p) }
        case .supplementaryView:
            delegate?.collectionView(self, willDisplaySupplementaryView: view, forElementKind: key.kind, at: key.indexPath)
        case .decorationView:
            break
        }
    }

    func endDisplaying(_ view: CollectionReusableView, _ key: ElementKey) {
        endDisplaying(view, key, delegate: delegate)
    }

    /// Tells `delegate` (read once by the caller) that `view` no longer shows `key`, and
    /// recycles the view.
    func endDisplaying(_ view: CollectionReusableView, _ key: ElementKey, delegate: CollectionViewDelegate?) {
        switch key.category {
        case .cell:
            if let delegate, let cell = view as? CollectionViewCell { delegate.collectionView(self, didEndDisplaying: cell, forItemAt: key.indexPath) }
        case .supplementaryView:
            delegate?.collectionView(self, didEndDisplayingSupplementaryView: view, forElementOfKind: key.kind, at: key.indexPath)
        case .decorationView:
            break
        }
        reuse.recycle(view, shown: key)
    }

    /// Items within one more screen of the displayed rect are prefetched; those that
    /// drift out of that band before being displayed are cancelled.
    private func updatePrefetching(around rect: CGRect) {
        guard isPrefetchingEnabled, let prefetchDataSource else {
            prefetching.removeAll()
            return
        }
        let band = scrollsHorizontally ? rect.insetBy(dx: -bounds.width, dy: 0) : rect.insetBy(dx: 0, dy: -bounds.height)
        var inBand: Set<IndexPath> = []
        for a in collectionViewLayout.layoutAttributesForElements(in: band) ?? [] where a.representedElementCategory == .cell {
            if display.table[.cell(a.indexPath)] == nil { inBand.insert(a.indexPath) }
        }
        let (start, cancel) = prefetching.update(inBand: inBand) { display.table[.cell($0)] != nil }
        if !cancel.isEmpty { prefetchDataSource.collectionView(self, cancelPrefetchingForItemsAt: cancel) }
        if !start.isEmpty { prefetchDataSource.collectionView(self, prefetchItemsAt: start) }
    }
}
