import Foundation

extension CollectionViewCompositionalLayout {
    /// Calls `body` with every element meeting `rect`, in section order. Sections are
    /// found by binary search, and a section's groups by arithmetic (self-sized
    /// sections: by scanning their frames).
    /// - Parameters:
    ///   - rect: A rectangle in content coordinates.
    ///   - body: Called with each element's attributes.
    public func forEachElement(in rect: CGRect, _ body: (CollectionViewLayoutAttributes) -> Void) {
        let visible = collectionView?.bounds ?? visibleBounds
        if !globals.isEmpty {
            for a in pinnedAttributes(globals, globalPinned, within: CGRect(origin: .zero, size: collectionViewContentSize), visible: visible) where a.frame.meets(rect) {
                body(a)
            }
        }
        let vertical = configuration.scrollDirection == .vertical
        let low = vertical ? rect.minY : rect.minX, high = vertical ? rect.maxY : rect.maxX
        // Locals: a class's stored properties pay an exclusivity check at every access.
        let overhang = self.overhang
        let offsets = collectionView?.orthogonalOffsets ?? [:]
        // Badges may stick out of their section by up to `overhang`.
        var s = firstSection(endingAfter: low - overhang)
        // Sections are read in place: copying one retains each of its arrays.
        sections.withUnsafeBufferPointer { sections in
            while s < sections.count, sections[s].start - overhang <= high {
                for a in sections[s].decorations where a.frame.meets(rect) { body(a) }
                if sections[s].orthogonal != .none, let offset = offsets[s] {
                    // A section scrolled on its own: what its offset brings into the rect.
                    forEachCell(of: sections[s], in: vertical ? rect.offsetBy(dx: offset, dy: 0) : rect.offsetBy(dx: 0, dy: offset), section: s, body)
                } else {
                    forEachCell(of: sections[s], in: rect, section: s, body)
                }
                if !sections[s].boundary.isEmpty {
                    for a in pinnedAttributes(sections[s].boundary, sections[s].pinned, within: sections[s].frame, visible: visible) where a.frame.meets(rect) { body(a) }
                }
                s += 1
            }
        }
    }

    private func forEachCell(of g: SectionGeometry, in rect: CGRect, section: Int, _ body: (CollectionViewLayoutAttributes) -> Void) {
        /// The badges of the cell at `frame` that reach into the rect (from outside it too).
        func badges(_ item: Int, _ frame: CGRect, _ definition: NSCollectionLayoutItem) {
            for badge in definition.supplementaryItems {
                let badgeFrame = badge.frame(on: frame)
                guard badgeFrame.meets(rect) else { continue }
                var b = CollectionViewLayoutAttributes(supplementaryOfKind: badge.elementKind, at: item, inSection: section, frame: badgeFrame)
                b.zIndex = badge.zIndex
                body(b)
            }
        }
        let hasBadges = g.hasBadges
        // Slots are read in place (a copy would retain each slot's item).
        g.slots.withUnsafeBufferPointer { slots in
            func cell(_ item: Int, _ frame: CGRect, _ k: Int) {
                if frame.meets(rect) {
                    var a = CollectionViewLayoutAttributes(cellAt: item, inSection: section, frame: frame)
                    a.zIndex = slots[k].zIndex
                    body(a)
                }
                if hasBadges { badges(item, frame, slots[k].item) }
            }
            if let frames = g.frames {
                for (item, frame) in frames.enumerated() { cell(item, frame, g.frameSlots[item]) }
                return
            }
            guard !slots.isEmpty, g.pitch > 0 || g.count <= slots.count else { return }
            let groups = (g.count + slots.count - 1) / slots.count
            // The groups whose step range meets the rect (badges may reach further).
            let low = g.stepsAlongX ? rect.minX - g.origin.x : rect.minY - g.origin.y
            let high = g.stepsAlongX ? rect.maxX - g.origin.x : rect.maxY - g.origin.y
            let reach = g.pitch > 0 ? Int((overhang / g.pitch).rounded(.up)) : 0
            let first = g.pitch > 0 ? max(0, Int((low / g.pitch).rounded(.down)) - 1 - reach) : 0
            let last = g.pitch > 0 ? min(groups - 1, Int((high / g.pitch).rounded(.down)) + reach) : groups - 1
            guard first <= last else { return }
            for group in first...last {
                let base = group * slots.count
                let step = CGFloat(group) * g.pitch
                let dx = g.origin.x + (g.stepsAlongX ? step : 0), dy = g.origin.y + (g.stepsAlongX ? 0 : step)
                for k in 0..<min(slots.count, g.count - base) {
                    cell(base + k, slots[k].frame.offsetBy(dx: dx, dy: dy), k)
                }
            }
        }
    }

    /// Headers and footers with the pinned ones moved into `visible`, kept within `bounds` (their section).
    private func pinnedAttributes(_ attributes: [CollectionViewLayoutAttributes], _ pinned: [(index: Int, leads: Bool)], within bounds: CGRect, visible: CGRect?) -> [CollectionViewLayoutAttributes] {
        guard let visible, !pinned.isEmpty else { return attributes }
        var out = attributes
        let vertical = configuration.scrollDirection == .vertical
        for (index, leads) in pinned {
            var frame = out[index].frame
            if vertical {
                let y = leads ? max(frame.minY, visible.minY) : min(frame.minY, visible.maxY - frame.height)
                frame.origin.y = min(max(y, bounds.minY), bounds.maxY - frame.height)
            } else {
                let x = leads ? max(frame.minX, visible.minX) : min(frame.minX, visible.maxX - frame.width)
                frame.origin.x = min(max(x, bounds.minX), bounds.maxX - frame.width)
            }
            out[index].frame = frame
        }
        return out
    }

    /// The first section whose end is past `v` along the axis.
    private func firstSection(endingAfter v: CGFloat) -> Int {
        sections.partitioningIndex { $0.end > v }
    }

    func itemAttributes(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section), let (frame, slot) = sections[indexPath.section].cell(indexPath.item) else { return nil }
        var a = CollectionViewLayoutAttributes(cellAt: indexPath.item, inSection: indexPath.section, frame: frame)
        a.zIndex = slot.zIndex
        return a
    }

    func supplementaryAttributes(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        let visible = collectionView?.bounds ?? visibleBounds
        if indexPath.count == 1 {
            return pinnedAttributes(globals, globalPinned, within: CGRect(origin: .zero, size: collectionViewContentSize), visible: visible)
                .first { $0.representedElementKind == elementKind }
        }
        guard indexPath.count == 2, sections.indices.contains(indexPath.section) else { return nil }
        let g = sections[indexPath.section]
        if indexPath.item == 0, let a = pinnedAttributes(g.boundary, g.pinned, within: g.frame, visible: visible).first(where: { $0.representedElementKind == elementKind }) {
            return a
        }
        guard let (frame, slot) = g.cell(indexPath.item), let badge = slot.item.supplementaryItems.first(where: { $0.elementKind == elementKind }) else { return nil }
        var b = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: elementKind, with: indexPath)
        b.frame = badge.frame(on: frame)
        b.zIndex = badge.zIndex
        return b
    }

    func decorationAttributes(ofKind elementKind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard indexPath.count == 2, sections.indices.contains(indexPath.section) else { return nil }
        return sections[indexPath.section].decorations.first { $0.representedElementKind == elementKind }
    }
}
