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
    public var reusableViewCount: Int { reusePool.values.reduce(0) { $0 + $1.views.count } }

    /// Elements displayed now (inside ``displayRect``), with their views.
    public var displayedElements: [ElementKey: CollectionReusableView] {
        layoutIfNeeded()
        return displayed
    }

    /// The index path the data source knows an item by (differs from the shown one
    /// only while an item is being moved interactively).
    func dataIndexPath(forPresented p: IndexPath) -> IndexPath {
        guard let m = movement, m.original != m.current else { return p }
        if p == m.current { return m.original }
        // Take the moving item out of the presented order, put it back at its original place.
        var q = p
        if q.section == m.current.section && q.item > m.current.item { q.item -= 1 }
        if q.section == m.original.section && q.item >= m.original.item { q.item += 1 }
        return q
    }

    /// Brings the displayed set in line with the layout: new elements get views from
    /// the data source (willDisplay), gone ones are recycled (didEndDisplaying).
    func updateDisplayedElements() {
        needsDisplayUpdate = false
        displayUpdates += 1
        defer {
            displayUpdates -= 1
            if displayUpdates == 0 && !keptForDisplayUpdate.isEmpty { keptForDisplayUpdate = [] }
        }
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
        // `keepDisplayedForUpdate()`), and retaining each in the array and releasing
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
            let shown = displayed
            for i in attributesWanted.indices { views.append(shown[attributesWanted[i].elementKey].map(Unmanaged.passUnretained)) }
        }
        var changed = false
        // Mark the views still wanted (counting each once, should a layout name an
        // element twice): any other displayed view left.
        displayPass &+= 1
        var found = 0
        for case let view? in views {
            view._withUnsafeGuaranteedRef { view in
                if view.displayPass != displayPass {
                    view.displayPass = displayPass
                    found += 1
                }
            }
        }
        if found != displayed.count {
            // The set changed (most batches and scrolls keep it): what left goes, in place.
            var departed: [(key: ElementKey, view: CollectionReusableView)] = []
            departed.reserveCapacity(max(0, displayed.count - found))
            for (key, view) in displayed where view.displayPass != displayPass { departed.append((key, view)) }
            for d in departed { displayed.removeValue(forKey: d.key) }
            let delegate = self.delegate
            for d in departed { endDisplaying(d.view, d.key, delegate: delegate) }
            changed = !departed.isEmpty
        }
        if found != views.count, let dataSource {
            let delegate = self.delegate
            for i in views.indices where views[i] == nil {
                let key = attributesWanted[i].elementKey
                guard let made = makeView(for: key, from: dataSource) else { continue }
                displayed[key] = made
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

    /// Keeps every displayed view alive until the display update under way ends, if
    /// one is: called before anything but the update itself takes views out of the
    /// displayed table (the update holds them unretained).
    func keepDisplayedForUpdate() {
        guard displayUpdates > 0 else { return }
        keptForDisplayUpdate.append(contentsOf: displayed.values)
    }

    /// Records the size a cell's content needs (measured by the client) and lays
    /// out again if it changed. Only with self-sizing (`estimatedItemSize`).
    public func setMeasuredSize(_ size: CGSize, forItemAt indexPath: IndexPath) {
        guard isValid(indexPath), selfSizedItems?[indexPath] != size else { return }
        (displayed[.cell(indexPath)])?.measuredSize = size
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
            cell.isSelected = !selected.isEmpty && selected.contains(p)
            cell.isHighlighted = highlighted != nil && highlighted == p
            cell.editingState = isEditing
            cell.finishConfiguring()
            return cell
        case .supplementaryView:
            return dataSource.collectionView(self, viewForSupplementaryElementOfKind: key.kind, at: p)
        case .decorationView:
            let kind = key.kind
            // Made from the class the layout registered for the kind; drawn by the template named after the kind.
            if let view = reusePool[Self.decorationPoolKey(kind)]?.views.popLast() {
                view.prepareForReuse()
                return view
            }
            return (collectionViewLayout.decorationViewClasses[kind] ?? CollectionReusableView.self).init(reuseIdentifier: kind)
        }
    }

    /// The queue recycled views of `key` wait in (made when first needed).
    func reuseQueue(_ key: String) -> ReuseQueue {
        if let queue = reusePool[key] { return queue }
        let queue = ReuseQueue()
        reusePool[key] = queue
        return queue
    }

    /// Where recycled decoration views of `kind` wait.
    static func decorationPoolKey(_ kind: String) -> String { "\u{1E}decoration\u{1F}" + kind }

    /// Tells `delegate` (the collection view's, read once by the caller) that `view` shows `key`.
    func willDisplay(_ view: CollectionReusableView, _ key: ElementKey, delegate: CollectionViewDelegate?) {
        switch key.category {
        case .cell:
            let p = key.indexPath
            if !prefetched.isEmpty { prefetched.remove(p) }
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
            let identifier = view.reuseIdentifier
            if let last = lastCellQueue, last.identifier == identifier { last.queue.views.append(view) } else { reuseQueue(identifier).views.append(view) }
        case .supplementaryView:
            delegate?.collectionView(self, didEndDisplayingSupplementaryView: view, forElementOfKind: key.kind, at: key.indexPath)
            reuseQueue(key.kind + "\u{1F}" + view.reuseIdentifier).views.append(view)
        case .decorationView:
            reuseQueue(Self.decorationPoolKey(key.kind)).views.append(view)
        }
    }

    /// Items within one more screen of the displayed rect are prefetched; those that
    /// drift out of that band before being displayed are cancelled.
    private func updatePrefetching(around rect: CGRect) {
        guard isPrefetchingEnabled, let prefetchDataSource else {
            prefetched = []
            return
        }
        let band = scrollsHorizontally ? rect.insetBy(dx: -bounds.width, dy: 0) : rect.insetBy(dx: 0, dy: -bounds.height)
        var inBand: Set<IndexPath> = []
        for a in collectionViewLayout.layoutAttributesForElements(in: band) ?? [] where a.representedElementCategory == .cell {
            if displayed[.cell(a.indexPath)] == nil { inBand.insert(a.indexPath) }
        }
        let start = inBand.subtracting(prefetched).sorted()
        let cancel = prefetched.subtracting(inBand).filter { displayed[.cell($0)] == nil }.sorted()
        prefetched = inBand
        if !cancel.isEmpty { prefetchDataSource.collectionView(self, cancelPrefetchingForItemsAt: cancel) }
        if !start.isEmpty { prefetchDataSource.collectionView(self, prefetchItemsAt: start) }
    }
}
