import Foundation

/// One cell's place in a laid-out group: its frame relative to the group's origin,
/// and the item that defines it (for its badges).
struct LeafSlot {
    var frame: CGRect
    var item: NSCollectionLayoutItem
    var zIndex = 0
}

/// Lays out one group, with no collection view: the pure part of the compositional
/// layout. Sizes resolve against their container (a group's subitems against the
/// group less its insets); estimated sides take the size a cell reported, when
/// `measured` has one for that cell (by its index among the group's cells).
struct GroupSolver {
    let environment: any NSCollectionLayoutEnvironment
    var measured: (Int) -> CGSize? = { _ in nil }

    /// A group repeating its subitems stops after this many, whatever their sizes.
    static let repetitionLimit = 10_000

    /// Lays out `group` in `container`, appending its cells to `leaves` (frames
    /// relative to `origin`); returns the group's size.
    /// `resolved`: the size its parent gave it along its axis (nil: from its layout size).
    func layout(_ group: NSCollectionLayoutGroup, in container: CGSize, at origin: CGPoint = .zero, resolved: CGSize? = nil, leaves: inout [LeafSlot]) -> CGSize {
        var size = resolved ?? group.layoutSize.resolve(in: container)
        let insets = group.contentInsets
        let inner = CGSize(width: max(0, size.width - insets.leading - insets.trailing), height: max(0, size.height - insets.top - insets.bottom))
        let innerOrigin = CGPoint(x: origin.x + insets.leading, y: origin.y + insets.top)
        switch group.arrangement {
        case .custom(let provider):
            for custom in provider(environment) {
                leaves.append(LeafSlot(frame: custom.frame.offsetBy(dx: origin.x, dy: origin.y), item: group, zIndex: custom.zIndex))
            }
            return size
        case .horizontal, .vertical:
            let horizontal = if case .horizontal = group.arrangement { true } else { false }
            let extent = linear(group, horizontal: horizontal, inner: inner, origin: innerOrigin, leaves: &leaves)
            // An estimated side of the group fits what it holds.
            if group.layoutSize.widthDimension.isEstimated {
                size.width = (horizontal ? extent.main : extent.cross) + insets.leading + insets.trailing
            }
            if group.layoutSize.heightDimension.isEstimated {
                size.height = (horizontal ? extent.cross : extent.main) + insets.top + insets.bottom
            }
            return size
        }
    }

    /// A child of a row or column before it is placed.
    private struct Child {
        var item: NSCollectionLayoutItem
        var main: CGFloat, cross: CGFloat
        var lead: CGFloat = 0, trail: CGFloat = 0, flexLead = false, flexTrail = false
        var before: CGFloat = 0, flexBefore = false, flexAfter = false
    }

    /// A row (`horizontal`) or column: returns the length used along it and the largest extent across.
    private func linear(_ group: NSCollectionLayoutGroup, horizontal: Bool, inner: CGSize, origin: CGPoint, leaves: inout [LeafSlot]) -> (main: CGFloat, cross: CGFloat) {
        let innerMain = horizontal ? inner.width : inner.height
        let innerCross = horizontal ? inner.height : inner.width
        let spacing = group.interItemSpacing?.spacing ?? 0
        let flexibleSpacing = group.interItemSpacing?.isFlexibleSpacing ?? false
        var children: [Child] = []
        var used: CGFloat = 0
        // The cells the group holds so far, to find their measured sizes.
        var cellCount = leaves.count
        func child(_ item: NSCollectionLayoutItem, main fixedMain: CGFloat?) -> Child {
            var size = item.layoutSize.resolve(in: inner)
            if !(item is NSCollectionLayoutGroup), let measured = measured(cellCount) {
                if item.layoutSize.widthDimension.isEstimated { size.width = measured.width }
                if item.layoutSize.heightDimension.isEstimated { size.height = measured.height }
            }
            var c = Child(item: item, main: fixedMain ?? (horizontal ? size.width : size.height), cross: horizontal ? size.height : size.width)
            if let edges = item.edgeSpacing {
                let (lead, trail, before, after) = horizontal ? (edges.leading, edges.trailing, edges.top, edges.bottom) : (edges.top, edges.bottom, edges.leading, edges.trailing)
                c.lead = lead?.spacing ?? 0
                c.trail = trail?.spacing ?? 0
                c.flexLead = lead?.isFlexibleSpacing ?? false
                c.flexTrail = trail?.isFlexibleSpacing ?? false
                c.before = before?.spacing ?? 0
                c.flexBefore = before?.isFlexibleSpacing ?? false
                c.flexAfter = after?.isFlexibleSpacing ?? false
            }
            return c
        }
        func size(of c: Child) -> CGSize { horizontal ? CGSize(width: c.main, height: c.cross) : CGSize(width: c.cross, height: c.main) }
        // How many cells a child holds (a nested group's, laid out on the side).
        func cells(_ c: Child) -> Int {
            guard let nested = c.item as? NSCollectionLayoutGroup else { return 1 }
            var scratch: [LeafSlot] = []
            var solver = self
            let base = cellCount
            solver.measured = { measured(base + $0) }
            _ = solver.layout(nested, in: inner, resolved: size(of: c), leaves: &scratch)
            return scratch.count
        }
        if let count = group.count, let item = group.subitems.first {
            let main = max(0, (innerMain - spacing * CGFloat(count - 1)) / CGFloat(count))
            for _ in 0..<count {
                let c = child(item, main: main)
                children.append(c)
                cellCount += cells(c)
            }
        } else if !group.subitems.isEmpty {
            var k = 0
            while children.count < Self.repetitionLimit {
                let item = group.subitems[k % group.subitems.count]
                let c = child(item, main: nil)
                let next = used + (children.isEmpty ? 0 : spacing) + c.lead + c.main + c.trail
                // The first always goes in; the others while they fit (half a point of rounding allowed).
                if !children.isEmpty && next > innerMain + 0.5 { break }
                children.append(c)
                cellCount += cells(c)
                used = next
                k += 1
                if c.main + c.lead + c.trail <= 0 && k >= group.subitems.count { break }
            }
        }
        // Spare room goes to the flexible spaces, shared equally.
        var total = children.reduce(0) { $0 + $1.lead + $1.main + $1.trail } + spacing * CGFloat(max(0, children.count - 1))
        let flexibleSlots = children.reduce(0) { $0 + ($1.flexLead ? 1 : 0) + ($1.flexTrail ? 1 : 0) } + (flexibleSpacing ? max(0, children.count - 1) : 0)
        let spare = max(0, innerMain - total)
        let share = flexibleSlots > 0 ? spare / CGFloat(flexibleSlots) : 0
        if flexibleSlots > 0 { total += spare }
        var position: CGFloat = 0, crossExtent: CGFloat = 0
        for (i, c) in children.enumerated() {
            if i > 0 { position += spacing + (flexibleSpacing ? share : 0) }
            position += c.lead + (c.flexLead ? share : 0)
            // Across: a flexible space before and after centers; before only, pushes to the far side.
            var crossOffset = c.before
            if c.flexBefore && c.flexAfter {
                crossOffset = max(0, (innerCross - c.cross) / 2)
            } else if c.flexBefore {
                crossOffset = max(0, innerCross - c.cross)
            }
            let at = horizontal ? CGPoint(x: origin.x + position, y: origin.y + crossOffset) : CGPoint(x: origin.x + crossOffset, y: origin.y + position)
            if let nested = c.item as? NSCollectionLayoutGroup {
                let size = layout(nested, in: inner, at: at, resolved: size(of: c), leaves: &leaves)
                crossExtent = max(crossExtent, crossOffset + (horizontal ? size.height : size.width))
            } else {
                let frame = horizontal ? CGRect(x: at.x, y: at.y, width: c.main, height: c.cross) : CGRect(x: at.x, y: at.y, width: c.cross, height: c.main)
                leaves.append(LeafSlot(frame: Self.inset(frame, by: c.item), item: c.item))
                crossExtent = max(crossExtent, crossOffset + c.cross)
            }
            position += c.main + c.trail + (c.flexTrail ? share : 0)
        }
        return (max(position, children.isEmpty ? 0 : total), crossExtent)
    }

    /// A cell's frame less its item's content insets, except on estimated sides.
    static func inset(_ frame: CGRect, by item: NSCollectionLayoutItem) -> CGRect {
        let i = item.contentInsets
        var f = frame
        if !item.layoutSize.widthDimension.isEstimated {
            f.origin.x += i.leading
            f.size.width = max(0, f.width - i.leading - i.trailing)
        }
        if !item.layoutSize.heightDimension.isEstimated {
            f.origin.y += i.top
            f.size.height = max(0, f.height - i.top - i.bottom)
        }
        return f
    }
}
